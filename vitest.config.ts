import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const runtime = fileURLToPath(new URL('./src/runtime/index.ts', import.meta.url));
const langgraph = fileURLToPath(new URL('./src/runtime/langgraph/index.ts', import.meta.url));
const support = fileURLToPath(new URL('./src/runtime/support.ts', import.meta.url));

// The main suite (`npm test`): needs only the repository, node_modules and the database binaries that
// test/setup/services.ts provides. The shared-corpus tests run in their own suite (vitest.corpus.config.ts).
export default defineConfig({
  resolve: {
    // Generated code imports the runtime package; tests run it against the sources (no build needed).
    alias: [
      { find: /^(?:@idemgen\/runtime|idemgen\/runtime)$/, replacement: runtime },
      { find: /^(?:@idemgen\/runtime|idemgen\/runtime)\/langgraph$/, replacement: langgraph },
      { find: /^@idemgen\/runtime\/support$/, replacement: support },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/corpus/**', '**/node_modules/**'],
    globalSetup: ['test/setup/services.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
