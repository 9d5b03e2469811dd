import type { Plan } from '../../classify/types.js';
import type { Dialect, ResolvedConfig } from '../../config/types.js';
import { ConfigError, diagnostic, hasErrors, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { EmittedFile, Emitter } from '../types.js';
import { SQL_DIALECTS } from './dialects.js';
import {
  buildDedupMigration,
  buildOwnedMigration,
  buildSagaMigration,
  buildStoreMigration,
  storeTable,
} from './migrations.js';
import { checkStoreNames } from './names.js';
import { collectOwnedTables, type OwnedTable } from './owned.js';
import { renderMigration, type RenderedMigration } from './render.js';
import type { Migration } from './statements.js';

export { SQL_DIALECTS } from './dialects.js';
export { SQL_IDENTIFIER_PATTERN, identifierProblem } from './identifiers.js';
export type { SqlDialect } from './sql-dialect.js';

/**
 * The store tables as one up/down script pair — the single source of the runtime stores' schema
 * (docs/contracts.md): their tests create tables with this, the stores carry no DDL of their own.
 * Throws ConfigError (`invalid_sql_identifier`) on a name outside the identifier policy.
 */
export function renderStoreMigration(
  dialect: Dialect,
  sqlConfig: ResolvedConfig['sql'],
  opts: { saga: boolean },
): RenderedMigration {
  const diagnostics = checkStoreNames(sqlConfig);
  if (hasErrors(diagnostics)) throw new ConfigError(diagnostics);
  const d = SQL_DIALECTS[dialect];
  return renderMigration(d, buildStoreMigration(d, sqlConfig, opts.saga));
}

/** The claim statement (insert a pending row or do nothing) for the dedup table in `dialect`. */
export function renderClaimStatement(dialect: Dialect, sqlConfig: ResolvedConfig['sql']): string {
  const diagnostics = checkStoreNames(sqlConfig);
  if (hasErrors(diagnostics)) throw new ConfigError(diagnostics);
  const d = SQL_DIALECTS[dialect];
  return d.renderClaim(storeTable(d, sqlConfig.schema, sqlConfig.dedupTable));
}

function migrationsFor(dialect: Dialect, config: ResolvedConfig, saga: boolean, owned: OwnedTable[]): Migration[] {
  const d = SQL_DIALECTS[dialect];
  return [
    buildDedupMigration(d, config.sql),
    ...(saga ? [buildSagaMigration(d, config.sql)] : []),
    ...owned.map((t, i) => buildOwnedMigration(d, 3 + i, t.table, t.operations)),
  ];
}

function schemaNotes(config: ResolvedConfig): Diagnostic[] {
  if (config.sql.schema === undefined || !config.dialects.includes('sqlite')) return [];
  return [
    diagnostic(
      'sql_schema_ignored',
      'info',
      'sql.schema does not apply to SQLite (no schemas); its tables are created unqualified',
      { file: config.configFile, pointer: '/sql/schema' },
    ),
  ];
}

/**
 * `sql/<dialect>/NNNN_<name>.{up,down}.sql` (golang-migrate naming): 0001 dedup always, 0002 saga
 * when an OP-5 operation is planned, 0003+ one per owned OP-4 table (sorted by name).
 */
export const emitSql: Emitter = (plan: Plan, config: ResolvedConfig) => {
  const owned = collectOwnedTables(plan, config);
  const diagnostics = [...checkStoreNames(config.sql, config.configFile), ...owned.diagnostics];
  if (hasErrors(diagnostics)) return { files: [], diagnostics };
  const saga = plan.apis.some((a) => a.entries.some((e) => e.mechanism === 'saga'));
  const files: EmittedFile[] = [];
  for (const dialect of [...new Set(config.dialects)].sort()) {
    for (const migration of migrationsFor(dialect, config, saga, owned.tables)) {
      const rendered = renderMigration(SQL_DIALECTS[dialect], migration);
      files.push({ path: `sql/${dialect}/${migration.name}.up.sql`, contents: rendered.up });
      files.push({ path: `sql/${dialect}/${migration.name}.down.sql`, contents: rendered.down });
    }
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, diagnostics: [...diagnostics, ...schemaNotes(config)] };
};
