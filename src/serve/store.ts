/**
 * The dedup store of `idemgen serve`: an embedded SQLite file by default, or any `openStore` URL —
 * PostgreSQL or MySQL/MariaDB let several instances behind a load balancer share one dedup table. Before the
 * first tool call both store tables exist: the dedup table and the OP-5 saga table are created with the
 * generated migration (the schema's one source, docs/contracts.md; `IF NOT EXISTS`, so starting against a
 * migrated store is a no-op), then probed. With `--no-migrate` only the probe runs, and a missing table stops
 * the start with one line that names it.
 */
import type { ResolvedConfig } from '../config/types.js';
import { renderStoreMigration } from '../emit/sql/index.js';
import { checkStoreTables, migrateStore, type StoreTablesDdl } from '../runtime/store/migrate.js';
import { openStore } from '../runtime/store/open.js';
import type { DedupStore } from '../runtime/store/types.js';

const DEFAULT_SERVE_STORE = '.idemgen/serve.sqlite';

export interface ServeStore {
  store: DedupStore;
  /** For the start-up line; a PostgreSQL URL without its password. */
  label: string;
}

/**
 * The dedup and saga tables' DDL in every dialect, with the config's names (`?table=` etc. override them).
 * Rendered on first read: `migrateStore` reads only the store's own dialect.
 */
function storeTablesDdl(sql: ResolvedConfig['sql']): StoreTablesDdl {
  return {
    get sqlite() {
      return renderStoreMigration('sqlite', { ...sql, schema: undefined }, { saga: true }).up;
    },
    get postgres() {
      return renderStoreMigration('postgres', sql, { saga: true }).up;
    },
    get mysql() {
      return renderStoreMigration('mysql', sql, { saga: true }).up;
    },
  };
}

/**
 * The URL with the config's table names (and PostgreSQL schema / MySQL database) where it names none, so
 * the store opens the tables the migration made; defaults are left out of the URL (it is the start-up line).
 */
function withConfigNames(url: string, sql: ResolvedConfig['sql']): string {
  const q = url.indexOf('?');
  const params = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  const before = params.toString();
  if (!params.has('table') && sql.dedupTable !== 'idemgen_dedup') params.set('table', sql.dedupTable);
  if (sql.schema !== undefined && /^postgres(ql)?:/.test(url) && !params.has('schema'))
    params.set('schema', sql.schema);
  if (sql.schema !== undefined && /^(mysql|mariadb):/.test(url) && !params.has('database'))
    params.set('database', sql.schema);
  const after = params.toString();
  return after === before ? url : `${q < 0 ? url : url.slice(0, q)}?${after}`;
}

function tablesOf(url: string, sql: ResolvedConfig['sql']): ResolvedConfig['sql'] {
  const q = url.indexOf('?');
  const params = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  const table = params.get('table');
  const schema = params.get('schema') ?? params.get('database');
  return { ...sql, ...(table ? { dedupTable: table } : {}), ...(schema ? { schema } : {}) };
}

/** A relative `sqlite:` path is the working directory's (the process may run elsewhere than `cwd`). */
function absolute(url: string, cwd: string): string {
  if (!url.startsWith('sqlite:')) return url;
  const rest = url.slice('sqlite:'.length);
  if (rest.startsWith('//') || rest.startsWith('/')) return url;
  return `sqlite:${cwd.replace(/\/$/, '')}/${rest}`;
}

function label(url: string): string {
  if (!/^(postgres(ql)?|mysql|mariadb):\/\//.test(url)) return url;
  const shown = new URL(url);
  if (shown.password) shown.password = '***';
  return shown.toString();
}

export async function openServeStore(
  url: string | undefined,
  cwd: string,
  sql: ResolvedConfig['sql'],
  opts: { migrate?: boolean } = {},
): Promise<ServeStore> {
  const spec = withConfigNames(absolute(url ?? `sqlite:${DEFAULT_SERVE_STORE}`, cwd), sql);
  if (opts.migrate !== false) await migrateStore(spec, storeTablesDdl(tablesOf(spec, sql)), cwd);
  const store = await openStore(spec);
  try {
    await checkStoreTables(store, sql.sagaTable);
  } catch (err) {
    await store.close();
    throw err;
  }
  return { store, label: label(spec) };
}
