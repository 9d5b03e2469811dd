/** `idemgen reconcile` and `idemgen prune`: operate on a live dedup store (SOP OP-5 reconciliation, TTL expiry). */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { openStore, pruneExpired, reconcileReport, type DedupStore } from '../../runtime/index.js';
import { ConfigError, diagnostic } from '../../diagnostics/diagnostic.js';
import type { CliContext } from '../context.js';

export interface StoreArgs {
  store: string;
  json?: boolean;
}

function storeError(code: string, message: string, hint?: string): ConfigError {
  return new ConfigError([diagnostic(code, 'error', message, { hint })]);
}

/** A wrong URL, a missing file or a missing table is the user's to fix: a diagnostic, not a stack trace. */
function open(ctx: CliContext, url: string): DedupStore {
  let target = url;
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\//, '').split('?')[0];
    const file = resolve(ctx.cwd, path);
    // better-sqlite3 would silently create an empty database; a typo must not look like "nothing pending".
    if (!existsSync(file)) throw storeError('store_not_found', `No SQLite database at ${file}`, 'Pass the file your application uses: --store sqlite:./path/to/idem.db');
    target = `sqlite:${file}${url.includes('?') ? url.slice(url.indexOf('?')) : ''}`;
  }
  try {
    return openStore(target);
  } catch (err) {
    throw storeError('invalid_store_url', (err as Error).message, 'Use sqlite:path/to/file.db or postgres://user@host:5432/db');
  }
}

async function withStore<T>(ctx: CliContext, url: string, fn: (store: DedupStore) => Promise<T>): Promise<T> {
  const store = open(ctx, url);
  try {
    return await fn(store);
  } catch (err) {
    const message = (err as Error).message ?? String(err);
    if (/no such table|does not exist|ECONNREFUSED|ENOTFOUND|password authentication|database .* does not exist/i.test(message)) {
      throw storeError('store_unavailable', `Cannot read the dedup store: ${message}`, 'Check the URL and that the generated migration (generated/sql/<dialect>/0001_idemgen_dedup.up.sql) was applied, or run `idemgen migrate --store …`.');
    }
    throw err;
  } finally {
    await store.close();
  }
}

export async function reconcileCommand(ctx: CliContext, args: StoreArgs): Promise<number> {
  const rows = await withStore(ctx, args.store, (store) => reconcileReport(store));
  if (args.json) {
    ctx.logger.out(JSON.stringify(rows, null, 2));
  } else if (rows.length === 0) {
    ctx.logger.out('No pending rows past their lease: nothing to reconcile.');
  } else {
    ctx.logger.out(`${rows.length} row(s) need reconciliation (pending past lease, outcome unknown):`);
    for (const r of rows) {
      ctx.logger.out(`  ${r.operation}  key=${r.key}${r.scope ? ` scope=${r.scope}` : ''}  ${r.mechanism}  stale for ${Math.round(r.staleForMs / 1000)} s  attempts=${r.attempts}`);
    }
  }
  return rows.length === 0 ? 0 : 1;
}

export async function pruneCommand(ctx: CliContext, args: StoreArgs): Promise<number> {
  const removed = await withStore(ctx, args.store, (store) => pruneExpired(store));
  ctx.logger.out(args.json ? JSON.stringify({ removed }) : `Removed ${removed} expired row(s).`);
  return 0;
}
