/** `idemgen reconcile` and `idemgen prune`: operate on a live dedup store (saga, docs/concepts.md#mechanisms reconciliation, TTL expiry). */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  corruptReport,
  openStore,
  pruneExpired,
  reconcileReport,
  reconcileSagaReport,
  type CorruptRow,
  type FullDedupStore,
  type StaleRow,
  type StaleSaga,
} from '@idemgen/runtime';
import { ConfigError, diagnostic } from '../../diagnostics/diagnostic.js';
import { terminalText } from '../../escape/index.js';
import { describeStoreError } from './store-failure.js';
import type { CliContext } from '../context.js';

export interface StoreArgs {
  store: string;
  json?: boolean;
}

export interface ReconcileArgs extends StoreArgs {
  'saga-table'?: string;
  resolve?: string;
  as?: 'failed' | 'completed' | 'not-executed';
  result?: string;
  reason?: string;
  by?: string;
  scope?: string;
  verify?: boolean;
  spec?: string[];
  'base-url'?: string;
  header?: string[];
  config?: string;
}

export function storeError(code: string, message: string, hint?: string): ConfigError {
  return new ConfigError([diagnostic(code, 'error', message, { hint })]);
}

/** A wrong URL, a missing file or a missing table is the user's to fix: a diagnostic, not a stack trace. */
export async function open(ctx: CliContext, url: string): Promise<FullDedupStore> {
  let target = url;
  if (url.startsWith('sqlite:')) {
    const path = url.slice('sqlite:'.length).replace(/^\/\//, '').split('?')[0];
    const file = resolve(ctx.cwd, path);
    // better-sqlite3 would silently create an empty database; a typo must not look like "nothing pending".
    if (!existsSync(file))
      throw storeError(
        'store_not_found',
        `no SQLite database at ${file}: pass the file your application uses (--store sqlite:./path/to/idem.db)`,
      );
    target = `sqlite:${file}${url.includes('?') ? url.slice(url.indexOf('?')) : ''}`;
  }
  try {
    return await openStore(target);
  } catch (err) {
    // A missing driver or a server that did not answer is said as such; only a URL openStore refused is invalid.
    throw (
      describeStoreError(url, err) ??
      storeError('invalid_store_url', String((err as Error).message).replace(/^openStore: /, ''))
    );
  }
}

export async function withStore<T>(
  ctx: CliContext,
  url: string,
  fn: (store: FullDedupStore) => Promise<T>,
): Promise<T> {
  const store = await open(ctx, url);
  try {
    return await fn(store);
  } catch (err) {
    // A server that did not answer, a missing table, a refused login: one line; anything else is a bug.
    throw describeStoreError(url, err) ?? err;
  } finally {
    await store.close();
  }
}

const secs = (ms: number): string =>
  ms < 120_000
    ? `${Math.round(ms / 1000)} s`
    : ms < 7_200_000
      ? `${Math.round(ms / 60_000)} min`
      : `${Math.round(ms / 3_600_000)} h`;
/** Quoted text in an error message is usually a value (a header value, an argument): shown by its size only. */
const QUOTED = /"[^"]*"|'[^']*'|`[^`]*`|\u201c[^\u201d]*\u201d/g;
const MAX_ERROR_TEXT = 300;

/**
 * A stored error as one safe line, like the argument summary (shape and sizes, never values): its name,
 * code and status, and its message with every quoted part replaced by its length, terminal controls
 * escaped and line breaks flattened (terminalText), cut at 300 characters. `--json` keeps the stored error.
 */
function errorText(e: unknown): string {
  if (e === null || e === undefined) return '—';
  const o = (typeof e === 'object' ? e : { message: String(e) }) as Record<string, unknown>;
  const head = [o.name, o.code, o.status].filter((v) => typeof v === 'string' || typeof v === 'number').join(' ');
  const message = typeof o.message === 'string' ? o.message.replace(QUOTED, (q) => `<${q.length - 2} chars>`) : '';
  const text = terminalText(head && message ? `${head}: ${message}` : head || message || '(no message)');
  return text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT)}…` : text;
}

function printRows(ctx: CliContext, rows: StaleRow[]): void {
  ctx.logger.out(`${rows.length} row(s) need reconciliation (pending past lease, outcome unknown):`);
  for (const r of rows) {
    const t = terminalText;
    ctx.logger.out(
      `  ${t(r.operation)}  key=${t(r.key)}${r.scope ? ` scope=${t(r.scope)}` : ''}  ${t(r.mechanism)}  stale for ${secs(r.staleForMs)}  attempts=${r.attempts}`,
    );
    ctx.logger.out(`      age ${secs(r.ageMs)}  last error: ${errorText(r.lastError)}`);
    ctx.logger.out(`      arguments: ${r.summary === null ? '(no summary stored)' : t(JSON.stringify(r.summary))}`);
  }
  ctx.logger.out(
    'Resolve one: idemgen reconcile --store URL --resolve KEY --as failed|completed|not-executed --reason "…" [--result JSON|@file]',
  );
}

function printSagas(ctx: CliContext, sagas: StaleSaga[]): void {
  ctx.logger.out(`${sagas.length} saga row(s) past their lease:`);
  for (const s of sagas) {
    const compensation =
      s.compensationState === 'owed'
        ? `compensation owed (${s.compensationOperation ?? 'none configured'})`
        : 'outcome unknown, not compensated';
    const t = terminalText;
    ctx.logger.out(
      `  ${t(s.operation)}  key=${t(s.key)}${s.scope ? ` scope=${t(s.scope)}` : ''}  status=${s.status}  external id=${t(s.externalId ?? '—')}  ${t(compensation)}`,
    );
  }
}

function printCorrupt(ctx: CliContext, corrupt: CorruptRow[]): void {
  ctx.logger.out(`${corrupt.length} row(s) are unreadable (a stored result that no longer parses):`);
  for (const c of corrupt) {
    const what = c.row ? `${c.row.operation}  status=${c.row.status}` : '(the whole row is unreadable)';
    ctx.logger.out(`  ${what}  key=${c.key}${c.scope ? ` scope=${c.scope}` : ''}`);
    ctx.logger.out(`      ${c.reason}  stored: ${JSON.stringify(c.text)}`);
  }
  ctx.logger.out(
    'Repair one: --resolve KEY --as completed --result JSON (retries replay it) or --as failed|not-executed (the key is freed)',
  );
}

export async function reconcileCommand(ctx: CliContext, args: ReconcileArgs): Promise<number> {
  if (args.resolve !== undefined) return (await import('./reconcile-resolve.js')).resolveCommand(ctx, args);
  if (args.verify === true) return (await import('./reconcile-verify.js')).verifyCommand(ctx, args);
  const { rows, sagas, corrupt } = await withStore(ctx, args.store, async (store) => ({
    rows: await reconcileReport(store),
    sagas: args['saga-table'] ? await reconcileSagaReport(store, args['saga-table']) : [],
    corrupt: await corruptReport(store),
  }));
  if (args.json) {
    // Without --saga-table and corrupt rows the JSON stays the plain array of rows it always was.
    const body =
      args['saga-table'] || corrupt.length > 0
        ? { rows, ...(args['saga-table'] ? { sagas } : {}), ...(corrupt.length > 0 ? { corrupt } : {}) }
        : rows;
    ctx.logger.out(JSON.stringify(body, null, 2));
  } else if (rows.length === 0 && sagas.length === 0 && corrupt.length === 0) {
    ctx.logger.out('No pending rows past their lease: nothing to reconcile.');
  } else {
    if (rows.length > 0) printRows(ctx, rows);
    if (sagas.length > 0) printSagas(ctx, sagas);
    if (corrupt.length > 0) printCorrupt(ctx, corrupt);
  }
  return rows.length === 0 && sagas.length === 0 && corrupt.length === 0 ? 0 : 1;
}

export async function pruneCommand(ctx: CliContext, args: StoreArgs): Promise<number> {
  const removed = await withStore(ctx, args.store, (store) => pruneExpired(store));
  ctx.logger.out(args.json ? JSON.stringify({ removed }) : `Removed ${removed} expired row(s).`);
  return 0;
}
