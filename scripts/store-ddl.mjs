#!/usr/bin/env node
// Writes src/serve/default-store-ddl.ts: the store tables' DDL (dedup + saga, `up`) for each SQL dialect
// under the default table names, rendered by the SQL emitter (Handlebars templates). `idemgen serve` creates
// its tables from this text when the names are the defaults, so a first start loads neither Handlebars nor
// the SQL emitter. test/serve/store-ddl.test.ts fails when the text and the templates part ways: then run
// `npm run build && node scripts/store-ddl.mjs`.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
if (!existsSync(join(root, 'dist/emit/sql/index.js'))) throw new Error('run `npm run build` first');
const { renderStoreMigration } = await import(join(root, 'dist/emit/sql/index.js'));
const { resolveConfig } = await import(join(root, 'dist/config/types.js'));
const names = resolveConfig({}).sql;
const ddl = {};
for (const dialect of ['mysql', 'postgres', 'sqlite'])
  ddl[dialect] = renderStoreMigration(dialect, names, { saga: true }).up;
const file = join(root, 'src/serve/default-store-ddl.ts');
writeFileSync(
  file,
  `/**
 * The store tables' DDL (dedup and saga tables, \`up\`) per SQL dialect under the default names, as the SQL
 * emitter renders it. Written by scripts/store-ddl.mjs (do not edit); test/serve/store-ddl.test.ts renders
 * it again and fails when the two differ. serve/store.ts uses it for the default names.
 */
import type { Dialect } from '../config/types.js';

/** The \`sql\` config this text was rendered for. */
export const DEFAULT_STORE_DDL_NAMES = ${JSON.stringify(names)};

export const DEFAULT_STORE_DDL: Readonly<Record<Dialect, string>> = ${JSON.stringify(ddl)};
`,
);
execFileSync(process.execPath, [join(root, 'node_modules/@biomejs/biome/bin/biome'), 'format', '--write', file], {
  stdio: 'inherit',
});
