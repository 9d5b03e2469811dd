/**
 * `idemgen migrate --store URL`: creates the dedup and saga tables in a live store with the same DDL
 * `generate` writes to generated/sql/<dialect>/ (renderStoreMigration, your config's `sql` names; `?table=`
 * and `?schema=` in the URL override them). Every statement is `IF NOT EXISTS`, so running it again is
 * harmless. `--dry-run` prints the SQL instead.
 */
import { describeStoreError, storeFailure } from './store-failure.js';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { renderStoreMigration } from '../../emit/sql/index.js';
import { ConfigError, diagnostic } from '../../diagnostics/diagnostic.js';
import { resolveRun, type CliContext, type CommonArgs } from '../context.js';

export interface MigrateArgs extends CommonArgs {
  store: string;
  dryRun?: boolean;
}

interface Target {
  dialect: 'sqlite' | 'postgres' | 'mysql';
  /** File path (SQLite) or connection string without idemgen's own query parameters (PostgreSQL, MySQL). */
  location: string;
  table?: string;
  schema?: string;
}

function parseTarget(url: string, cwd: string): Target {
  const q = url.indexOf('?');
  const params = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  const table = params.get('table') ?? undefined;
  if (url.startsWith('sqlite:')) {
    const path = decodeURIComponent((q < 0 ? url : url.slice(0, q)).slice('sqlite:'.length).replace(/^\/\//, ''));
    if (!path) throw new ConfigError([diagnostic('invalid_store_url', 'error', `${url} names no database file`)]);
    return { dialect: 'sqlite', location: resolve(cwd, path), table };
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const parsed = new URL(url);
    parsed.searchParams.delete('table');
    parsed.searchParams.delete('schema');
    return { dialect: 'postgres', location: parsed.toString(), table, schema: params.get('schema') ?? undefined };
  }
  if (/^(mysql|mariadb):\/\//.test(url)) {
    const parsed = new URL(url.replace(/^mariadb:/, 'mysql:'));
    parsed.searchParams.delete('table');
    parsed.searchParams.delete('database');
    return { dialect: 'mysql', location: parsed.toString(), table, schema: params.get('database') ?? undefined };
  }
  throw new ConfigError([
    diagnostic('invalid_store_url', 'error', `Unsupported store URL ${JSON.stringify(url)}`, {
      hint: 'Use sqlite:path/to/file.db, postgres://user@host:5432/db or mysql://user@host:3306/db',
    }),
  ]);
}

async function apply(target: Target, sql: string, cwd: string): Promise<void> {
  const require = createRequire(resolve(cwd, 'package.json'));
  const load = <T>(name: string): T => {
    try {
      return require(name) as T;
    } catch {
      return createRequire(import.meta.url)(name) as T;
    }
  };
  if (target.dialect === 'sqlite') {
    const Database = load<new (file: string) => { exec(sql: string): void; close(): void }>('better-sqlite3');
    const db = new Database(target.location);
    try {
      db.exec(sql);
    } finally {
      db.close();
    }
    return;
  }
  if (target.dialect === 'mysql') {
    type Conn = { query(sql: string): Promise<unknown>; end(): Promise<void> };
    const mysql = load<{ createConnection(o: { uri: string; multipleStatements: boolean }): Promise<Conn> }>(
      'mysql2/promise',
    );
    const conn = await mysql.createConnection({ uri: target.location, multipleStatements: true });
    try {
      await conn.query(sql);
    } finally {
      await conn.end();
    }
    return;
  }
  const pg = load<{
    Client: new (o: {
      connectionString: string;
    }) => { connect(): Promise<void>; query(sql: string): Promise<unknown>; end(): Promise<void> };
  }>('pg');
  const client = new pg.Client({ connectionString: target.location });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function migrateCommand(ctx: CliContext, args: MigrateArgs): Promise<number> {
  const { config } = await resolveRun(ctx, { ...args, inputs: [] });
  const target = parseTarget(args.store, ctx.cwd);
  const sqlConfig = {
    ...config.sql,
    ...(target.table ? { dedupTable: target.table } : {}),
    ...(target.schema ? { schema: target.schema } : {}),
  };
  const { up } = renderStoreMigration(target.dialect, sqlConfig, { saga: true });
  if (args.dryRun) {
    ctx.logger.out(up);
    return 0;
  }
  try {
    await apply(target, up, ctx.cwd);
  } catch (err) {
    // A driver that is not installed, a server that did not answer: one line each; else what the database said.
    throw (
      describeStoreError(args.store, err) ??
      storeFailure(
        'store_unavailable',
        `cannot create the store tables: ${String((err as Error)?.message ?? err).split('\n')[0]} (for SQLite, does the folder exist? --dry-run prints the SQL)`,
      )
    );
  }
  ctx.logger.out(
    `Created (if missing) ${sqlConfig.dedupTable} and ${sqlConfig.sagaTable} in ${target.dialect === 'sqlite' ? target.location : target.dialect === 'mysql' ? 'the MySQL/MariaDB database' : 'the PostgreSQL database'}.`,
  );
  return 0;
}
