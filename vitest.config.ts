import { defineConfig } from 'vitest/config';

// The main suite (`npm test`): needs only the repository, node_modules and the database binaries that
// test/setup/services.ts provides. The shared-corpus tests run in their own suite (vitest.corpus.config.ts).
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/corpus/**', '**/node_modules/**'],
    globalSetup: ['test/setup/services.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
