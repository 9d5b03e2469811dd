import { defineConfig } from 'vitest/config';
import { runtimeSourceAliases } from './vitest.config.js';

// `npm run test:corpus`: real vendor specs and tool lists from ../shared/corpus (or IDEMGEN_CORPUS).
// Kept out of `npm test` so a fresh clone passes on its own; `.ci/run` runs both suites.
export default defineConfig({
  // The corpus tests run the runtime from its sources too (packages/runtime/src, as vitest.config.ts maps it).
  resolve: { alias: runtimeSourceAliases() },
  test: {
    include: ['test/corpus/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
