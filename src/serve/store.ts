/**
 * The dedup store of `idemgen serve`: an embedded SQLite file by default, or any `openStore` URL —
 * PostgreSQL or MySQL/MariaDB let several instances behind a load balancer share one dedup table. Before the
 * first tool call both store tables exist: the dedup table and the OP-5 saga table are created with the
 * generated migration (the schema's one source, docs/contracts.md; `IF NOT EXISTS`, so starting against a
 * migrated store is a no-op), then probed. With `--no-migrate` only the probe runs, and a missing table stops
 * the start with one line that names it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Dialect, ResolvedConfig } from '../config/types.js';
import { cacheDir, listFiles } from '../cache/fingerprint.js';
import { VERSION } from '../cache/version.js';
import { CODE_ROOT, PACKAGE_ROOT } from '../package-files.js';
import { DEFAULT_STORE_DDL, DEFAULT_STORE_DDL_NAMES } from './default-store-ddl.js';
import { checkStoreTables, migrateStore } from '@idemgen/runtime/internal/store/migrate.js';
import { openStore } from '@idemgen/runtime/internal/store/open.js';
import type { DedupStore } from '@idemgen/runtime';

export const DEFAULT_SERVE_STORE = '.idemgen/serve.sqlite';

export interface ServeStore {
  store: DedupStore;
  /** For the start-up line; a PostgreSQL URL without its password. */
  label: string;
}

const sha = (data: string): string => createHash('sha256').update(data).digest('hex');

/** The SQL dialect whose tables a store URL needs; none for Redis/Valkey and `memory:`. */
function sqlDialectOf(url: string): Dialect | undefined {
  if (url.startsWith('sqlite:')) return 'sqlite';
  if (/^postgres(ql)?:\/\//.test(url)) return 'postgres';
  if (/^(mysql|mariadb):\/\//.test(url)) return 'mysql';
  return undefined;
}

/** What the rendered DDL depends on besides its inputs: the SQL emitter's code and templates (size + mtime). */
function rendererStamp(): string {
  const parts: string[] = [VERSION];
  // The labels are the folders' old paths from this module: a stamp recorded before stays the same.
  const folders = [
    ['../emit/sql/', new URL('emit/sql/', CODE_ROOT)],
    ['../../templates/sql/', new URL('templates/sql/', PACKAGE_ROOT)],
  ] as const;
  for (const [rel, url] of folders) {
    const dir = fileURLToPath(url);
    for (const f of listFiles(dir)) {
      const st = statSync(join(dir, f));
      parts.push(`${rel}${f}:${st.size}:${st.mtimeMs}`);
    }
  }
  return parts.join('\n');
}

/** The names are the defaults the prebuilt DDL was rendered for (a missing and an undefined field agree). */
function defaultNames(names: ResolvedConfig['sql']): boolean {
  const given = names as unknown as Record<string, unknown>;
  const prebuilt = DEFAULT_STORE_DDL_NAMES as Record<string, unknown>;
  return [...new Set([...Object.keys(given), ...Object.keys(prebuilt)])].every((k) => given[k] === prebuilt[k]);
}

/**
 * The dedup and saga tables' DDL for one SQL dialect, with the config's names (`?table=` etc. override them).
 * Under the default names it is the emitter's text rendered ahead of time (default-store-ddl.ts), so no start
 * loads the emitter for it. Other names are rendered by the generator's SQL emitter (Handlebars templates)
 * once, then kept in the cache folder under a key of the dialect, names and emitter, so a later start creates
 * its tables without loading the emitter. An entry whose text does not match its recorded hash is rendered
 * again.
 */
async function storeTablesDdl(
  sqlDialect: Dialect,
  sql: ResolvedConfig['sql'],
  cwd: string,
  useCache: boolean,
): Promise<string> {
  const names = sqlDialect === 'sqlite' ? { ...sql, schema: undefined } : sql;
  if (defaultNames(names)) return DEFAULT_STORE_DDL[sqlDialect];
  if (!useCache) {
    const { renderStoreMigration } = await import('../emit/sql/index.js');
    return renderStoreMigration(sqlDialect, names, { saga: true }).up;
  }
  const key = sha(JSON.stringify({ sqlDialect, names, stamp: rendererStamp() }));
  const file = join(cacheDir(cwd), `store-ddl-${key.slice(0, 16)}.json`);
  try {
    const cached = JSON.parse(readFileSync(file, 'utf8')) as { key?: unknown; sha?: unknown; ddl?: unknown };
    if (cached.key === key && typeof cached.ddl === 'string' && cached.sha === sha(cached.ddl)) return cached.ddl;
  } catch {
    // no entry yet, or an unreadable one: render below
  }
  const { renderStoreMigration } = await import('../emit/sql/index.js');
  const ddl = renderStoreMigration(sqlDialect, names, { saga: true }).up;
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(cacheDir(cwd), { recursive: true });
    writeFileSync(tmp, JSON.stringify({ key, sha: sha(ddl), ddl }));
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
  return ddl;
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
  /** `cache: false` (`--no-cache`): render the DDL of non-default names now instead of reading the cached text. */
  opts: { migrate?: boolean; cache?: boolean } = {},
): Promise<ServeStore> {
  const spec = withConfigNames(absolute(url ?? `sqlite:${DEFAULT_SERVE_STORE}`, cwd), sql);
  const sqlDialect = sqlDialectOf(spec);
  if (opts.migrate !== false && sqlDialect !== undefined) {
    const ddl = await storeTablesDdl(sqlDialect, tablesOf(spec, sql), cwd, opts.cache !== false);
    await migrateStore(spec, { sqlite: '', postgres: '', mysql: '', [sqlDialect]: ddl }, cwd);
  }
  const store = await openStore(spec);
  try {
    await checkStoreTables(store, sql.sagaTable);
  } catch (err) {
    await store.close();
    throw err;
  }
  return { store, label: label(spec) };
}
