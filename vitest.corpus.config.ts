import { defineConfig } from 'vitest/config';

// `npm run test:corpus`: real vendor specs and tool lists from ../shared/corpus (or IDEMGEN_CORPUS).
// Kept out of `npm test` so a fresh clone passes on its own; `.ci/run` runs both suites.
export default defineConfig({
  test: {
    include: ['test/corpus/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
