/**
 * serve's prebuilt store DDL (src/serve/default-store-ddl.ts, written by scripts/store-ddl.mjs) is the SQL
 * emitter's text for the default names, in every dialect: a template change without `node
 * scripts/store-ddl.mjs` fails here.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/types.js';
import { renderStoreMigration } from '../../src/emit/sql/index.js';
import { DEFAULT_STORE_DDL, DEFAULT_STORE_DDL_NAMES } from '../../src/serve/default-store-ddl.js';

describe("serve's prebuilt store DDL", () => {
  it('was rendered for the default sql names', () => {
    expect(DEFAULT_STORE_DDL_NAMES).toEqual(resolveConfig({}).sql);
  });

  it.each(['mysql', 'postgres', 'sqlite'] as const)('is what the SQL emitter renders for %s', (dialect) => {
    const rendered = renderStoreMigration(dialect, resolveConfig({}).sql, { saga: true }).up;
    expect(DEFAULT_STORE_DDL[dialect], 'run `npm run build && node scripts/store-ddl.mjs`').toBe(rendered);
  });
});
