/**
 * Redis / Valkey dedup store: the state machine of the SQL stores, the claim one plain `SET NX GET`
 * (plain-claim.ts) and every later transition one Lua script (scripts.ts), all on the server's clock
 * (`TIME` inside the scripts, extrapolated for the plain claim: server-clock.ts; `clock: 'caller'` takes
 * the caller's `now`), resolved rows expiring by native TTL, stuck rows found by scanning the rows (no
 * index written per call). Durability is the server's: run it with
 * AOF (`appendonly yes`, `appendfsync everysec` or `always`) — a cache that may drop keys on restart
 * or eviction is exactly the "dedup key only in memory" docs/concepts.md#store-rules forbids, so use `maxmemory-policy
 * noeviction` (or `volatile-*`: pending rows carry no TTL and are never chosen).
 */
import { connectRedis, type RedisClientLike, type RedisConnection } from './client.js';
import {
  claimPrefix,
  csv,
  patchOf,
  pendingText,
  redisKeys,
  rowSpans,
  toDedupRow,
  toSagaRow,
  type RedisKeys,
  type RowSpans,
} from './rows.js';
import { createPlainClaim } from './plain-claim.js';
import { createServerClock, type ServerClock } from './server-clock.js';
import { pendingRow, pendingSagaRow, repairPatch } from '../memory.js';
import { CLAIM, CLAIM_ROW, COMPLETE_HELD, FENCED, RESOLVE, LIST_STALE, PRUNE, REPAIR, TAKE_OVER } from './scripts.js';
import { createHeldRows, finishedParts, type HeldRows } from './held.js';
import type { StoreTimeouts } from '../timeouts.js';
import { corruptionOf, unreadableRow } from '../../core/corrupt.js';
import type {
  ClaimInput,
  ClaimResult,
  CorruptRow,
  DedupRow,
  FencedInput,
  FullDedupStore,
  RowId,
  SagaRow,
  SagaStore,
} from '../types.js';

/** Timeouts and reconnects of a client the store creates: see `RedisConnectOptions` (client.ts). */
export interface RedisStoreOptions extends StoreTimeouts {
  /** `redis://…` / `rediss://…` (Valkey speaks the same protocol); the store then owns the client. */
  url?: string;
  /** Or a connected client with `sendCommand` (node-redis); the store then does not close it. */
  client?: RedisClientLike;
  /** Key namespace (default `idemgen`) and logical table (default `idemgen_dedup`). */
  prefix?: string;
  table?: string;
  onClientError?: (err: Error) => void;
  /**
   * Whose clock decides the dedup table's leases and expiry: `store` (default) the server's, `TIME` read
   * inside each script, so application servers with skewed clocks still agree; `caller` the `now` each
   * call passes. The saga table keeps the caller's.
   */
  clock?: 'store' | 'caller';
  /** Reconnect attempts after a drop before the client stops (default 3; the next command connects anew). */
  reconnectAttempts?: number;
}

const DEDUP_OPEN = csv(['pending']);
const SAGA_OPEN = csv(['pending', 'compensating']);

type Fields = Record<string, string | number | null | undefined>;

/** Keys per SCAN page (a hint to the server), and so per LIST_STALE / PRUNE script call. */
const PAGE = '500';

/** Runs `page` on every page of row keys matching `pattern` (a key may come twice: SCAN's guarantee). */
async function scanRows(conn: RedisConnection, pattern: string, page: (keys: string[]) => Promise<void>) {
  let cursor = '0';
  do {
    const [next, keys] = (await conn.command(['SCAN', cursor, 'MATCH', pattern, 'COUNT', PAGE])) as [string, string[]];
    if (keys.length > 0) await page(keys);
    cursor = String(next);
  } while (cursor !== '0');
}

/** How a fenced update changes the row besides its plain fields. */
interface Fenced {
  action?: 'set' | 'delete';
  /** Fields set to the clock's now plus so many milliseconds. */
  timed?: Record<string, number>;
  /** The row resolves here and its window restarts (dedup complete and fail). */
  restartWindow?: boolean;
}

interface Table {
  keys: RedisKeys;
  open: string;
  /** The `now` argument of a script: '' for the server's clock, else the caller's. */
  clock(now: number): string;
  /** The clock's now when applied (with `action: 'delete'`, the caller's), else undefined (fenced). */
  fenced(f: FencedInput, allowed: string, fields: Fields, how?: Fenced): Promise<number | undefined>;
  get(id: RowId): Promise<string | undefined>;
  /** `written`: the row stored is exactly the one passed in (no need to parse it back). */
  claim(id: RowId, now: number, row: object): Promise<{ claimed: boolean; json: string; written: boolean }>;
  takeOver(
    id: RowId,
    o: { expectedToken: string | null; newToken: string; now: number; leaseMs: number },
    allowed: string,
    extra: { attempts: boolean; updatedAt: boolean },
  ): Promise<string | undefined>;
  listStale<R extends StaleRow>(now: number, limit: number, parse: (json: string) => R): Promise<R[]>;
}

type StaleRow = RowId & { leaseExpiresAt: number };

/** `seen`: told every `TIME` reading a script returns (server-clock.ts); given only on the server's clock. */
function table(conn: RedisConnection, keys: RedisKeys, open: string, seen?: (serverMs: number) => void): Table {
  const clock = seen ? () => '' : (now: number) => String(now);
  return {
    keys,
    open,
    clock,
    async fenced(f, allowed, fields, how = {}) {
      const args = [
        f.leaseToken,
        allowed,
        clock(f.now),
        how.action ?? 'set',
        open,
        patchOf(fields),
        how.timed ? JSON.stringify(how.timed) : '',
        how.restartWindow ? '1' : '0',
      ];
      const reply = await conn.script(FENCED, [keys.row(f.scope, f.key)], args);
      if (!Array.isArray(reply)) return Number(reply) === 1 ? f.now : undefined;
      const now = Number(reply[1]);
      seen?.(now);
      return now;
    },
    async get(id) {
      const v = await conn.command(['GET', keys.row(id.scope, id.key)]);
      return typeof v === 'string' ? v : undefined;
    },
    async claim(id, now, row) {
      const json = JSON.stringify(row);
      const reply = await conn.script(CLAIM, [keys.row(id.scope, id.key)], [String(now), open, json]);
      if (typeof reply === 'string') return { claimed: false, json: reply, written: false };
      return { claimed: true, json, written: true };
    },
    async takeOver(id, o, allowed, extra) {
      const reply = await conn.script(
        TAKE_OVER,
        [keys.row(id.scope, id.key)],
        [
          o.expectedToken ?? '',
          o.newToken,
          clock(o.now),
          String(o.leaseMs),
          allowed,
          extra.attempts ? '1' : '0',
          extra.updatedAt ? '1' : '0',
        ],
      );
      return typeof reply === 'string' ? reply : undefined;
    },
    async listStale(now, limit, parse) {
      // Oldest lease first, like the SQL stores' ORDER BY, so every page is read before the cut; only
      // stuck rows are kept meanwhile. By row key: SCAN may return a key twice.
      const stale = new Map<string, ReturnType<typeof parse>>();
      await scanRows(conn, keys.rowPattern, async (page) => {
        for (const json of (await conn.script(LIST_STALE, page, [clock(now), open])) as string[]) {
          const row = parse(json);
          stale.set(keys.row(row.scope, row.key), row);
        }
      });
      return [...stale.values()].sort((a, b) => a.leaseExpiresAt - b.leaseExpiresAt).slice(0, limit);
    },
  };
}

function sagaStore(t: Table): SagaStore {
  return {
    async claim(i): Promise<ClaimResult<SagaRow>> {
      const row = pendingSagaRow(i);
      const { claimed, json, written } = await t.claim(i, i.now, row);
      return { claimed, row: written ? row : toSagaRow(json) };
    },
    get: async (id) => mapped(await t.get(id), toSagaRow),
    transition: async (s) =>
      applied(
        await t.fenced(s, csv(s.from), {
          status: s.to,
          externalId: s.externalId,
          result: s.result,
          error: s.error,
          updatedAt: s.now,
          leaseExpiresAt: s.leaseMs === undefined ? undefined : s.now + s.leaseMs,
        }),
      ),
    takeOver: async (o) => mapped(await t.takeOver(o, o, csv(o.from), { attempts: false, updatedAt: true }), toSagaRow),
    release: async (f) => applied(await t.fenced(f, csv(['pending']), {}, { action: 'delete' })),
    renewLease: async (r) =>
      applied(await t.fenced(r, t.open, { leaseExpiresAt: r.now + r.leaseMs, updatedAt: r.now })),
    listStale: (now, limit = 1000) => t.listStale(now, limit, toSagaRow),
  };
}

const applied = (now: number | undefined): boolean => now !== undefined;
const isOne = (reply: unknown): boolean => Number(reply) === 1;
const mapped = <R>(json: string | undefined, to: (json: string) => R): R | undefined => (json ? to(json) : undefined);

/** What the dedup table's operations share: the connection, the table, the clock and the rows this process holds. */
interface DedupContext {
  conn: RedisConnection;
  t: Table;
  /** The server's clock as last seen; undefined with `clock: 'caller'`. */
  server: ServerClock | undefined;
  held: HeldRows;
  rowKey(id: RowId): string;
}

/**
 * The claim: the common case is one plain `SET NX GET` on the server's clock as last seen (server-clock.ts);
 * with no recent reading, or a row to replace, the CLAIM_ROW script reads `TIME` itself.
 */
function dedupClaim({ conn, t, server, held, rowKey }: DedupContext): FullDedupStore['claim'] {
  const seen = server?.saw;
  const plainClaim = createPlainClaim(conn);
  const claimRow = async (key: string, i: ClaimInput, spans: RowSpans, replace: boolean) => {
    const args = [t.clock(i.now), replace ? '1' : '0', claimPrefix(spans), spans.tail, String(i.leaseMs)];
    args.push(String(i.ttlMs));
    const reply = (await conn.script(CLAIM_ROW, [key], args)) as [number, number, string?];
    seen?.(Number(reply[1]));
    return reply;
  };
  /** The script claim: the server's `TIME` decides, and comes back as `now`. */
  const scriptClaim = async (key: string, i: ClaimInput, spans: RowSpans): Promise<ClaimResult> => {
    let [won, now, text] = await claimRow(key, i, spans, false);
    if (!won) {
      const current = toDedupRow(String(text));
      if (current.status === 'pending' || current.expiresAt > now) return { claimed: false, row: current, now };
      // A resolved row whose window ended (its native TTL may not have fired yet): replace it, atomically.
      [won, now, text] = await claimRow(key, i, spans, true);
      if (!won) return { claimed: false, row: toDedupRow(String(text)), now };
    }
    const row = text === undefined ? pendingRow(i, null, now) : toDedupRow(text);
    held.hold(key, row, text === undefined ? spans : undefined);
    return { claimed: true, row, now };
  };
  return async (i) => {
    const key = rowKey(i);
    const now = server ? server.now() : i.now;
    if (now === undefined) return scriptClaim(key, i, rowSpans(pendingRow(i, null)));
    const row = pendingRow(i, null, now);
    const spans = rowSpans(row);
    const plain = await plainClaim(key, row, pendingText(spans, row));
    if (plain === undefined) return scriptClaim(key, i, spans);
    if (plain.claimed) held.hold(key, row, spans);
    return plain;
  };
}

/** Completion: a row this process holds is finished by COMPLETE_HELD from what it kept; any other by FENCED. */
function dedupComplete({ conn, t, server, held, rowKey }: DedupContext): FullDedupStore['complete'] {
  /** COMPLETE_HELD's answer: 1 or {1, now} (a clock reading) applied, 0 fenced. */
  const completedAt = (reply: unknown): boolean => {
    if (!Array.isArray(reply)) return Number(reply) === 1;
    server?.saw(Number(reply[1]));
    return true;
  };
  return (c) => {
    const key = rowKey(c);
    const h = held.take(key, c.leaseToken);
    if (h === undefined) {
      const patch = { status: 'completed', result: c.result, externalId: c.externalId ?? null, error: null };
      return t.fenced(c, DEDUP_OPEN, patch, { timed: { completedAt: 0 }, restartWindow: true }).then(applied);
    }
    // The completion's times: the server's clock as last seen (or the caller's); none known, the script reads TIME.
    const { text, tail, windowMs } = finishedParts(h, c, server ? server.now() : c.now);
    const args = [
      `"leaseToken":${JSON.stringify(c.leaseToken)}`,
      text,
      tail,
      String(Math.max(1, windowMs)),
      c.leaseToken,
    ];
    return conn.script(COMPLETE_HELD, [key], args).then(completedAt);
  };
}

/** Reconcile's side of the table: damaged rows listed and repaired, expired rows swept. */
function dedupUpkeep({
  conn,
  t,
  rowKey,
}: DedupContext): Pick<FullDedupStore, 'listCorrupt' | 'repairCorrupt' | 'prune'> {
  return {
    async listCorrupt(limit = 1000) {
      const out: CorruptRow[] = [];
      await scanRows(conn, t.keys.rowPattern, async (page) => {
        const values = (await conn.command(['MGET', ...page])) as (string | null)[];
        page.forEach((rowKey, i) => {
          const json = values[i];
          const id = t.keys.idOf(rowKey);
          if (typeof json !== 'string' || id === undefined || out.some((c) => c.key === id.key && c.scope === id.scope))
            return;
          let bad: CorruptRow | undefined;
          try {
            bad = corruptionOf(toDedupRow(json, id), json);
          } catch (err) {
            bad = unreadableRow(id, json, err);
          }
          if (bad) out.push(bad);
        });
      });
      return out.slice(0, limit);
    },
    async repairCorrupt(r) {
      let row: DedupRow;
      try {
        row = toDedupRow(r.seen, r);
      } catch {
        // Nothing of the row reads (operation, arguments hash): no result can be stored for replay.
        if (r.as === 'completed') return false;
        return isOne(await conn.script(REPAIR, [rowKey(r)], [r.seen, '']));
      }
      if (row.status === 'pending') return false;
      const repaired = { ...row, result: null, ...repairPatch(r, row) };
      return isOne(await conn.script(REPAIR, [rowKey(r)], [r.seen, JSON.stringify(repaired)]));
    },
    async prune(now) {
      // Native TTL already drops resolved rows; this sweeps those whose logical `expiresAt` passed first.
      let removed = 0;
      await scanRows(conn, t.keys.rowPattern, async (page) => {
        removed += Number(await conn.script(PRUNE, page, [t.clock(now), DEDUP_OPEN]));
      });
      return removed;
    },
  };
}

export function createRedisStore(opts: RedisStoreOptions): FullDedupStore {
  const conn = connectRedis(opts, [
    CLAIM,
    CLAIM_ROW,
    RESOLVE,
    FENCED,
    COMPLETE_HELD,
    TAKE_OVER,
    LIST_STALE,
    PRUNE,
    REPAIR,
  ]);
  const prefix = opts.prefix ?? 'idemgen';
  const server = opts.clock === 'caller' ? undefined : createServerClock();
  const t = table(conn, redisKeys(prefix, opts.table ?? 'idemgen_dedup'), DEDUP_OPEN, server?.saw);
  const sagas = new Map<string, SagaStore>();
  const held = createHeldRows();
  const rowKey = (id: RowId): string => t.keys.row(id.scope, id.key);
  const ctx: DedupContext = { conn, t, server, held, rowKey };
  /** Settles a held row's entry (whatever the script answers, this token no longer needs it). */
  const settled = async (f: FencedInput, p: Promise<number | undefined>): Promise<boolean> => {
    held.take(rowKey(f), f.leaseToken);
    return applied(await p);
  };
  return {
    claim: dedupClaim(ctx),
    async get(id): Promise<DedupRow | undefined> {
      const json = await t.get(id);
      return json === undefined ? undefined : toDedupRow(json, id);
    },
    complete: dedupComplete(ctx),
    fail: (f) =>
      settled(
        f,
        t.fenced(
          f,
          DEDUP_OPEN,
          { status: 'failed', error: f.error },
          { timed: { completedAt: 0 }, restartWindow: true },
        ),
      ),
    markUnknown: (f) => settled(f, t.fenced(f, DEDUP_OPEN, { error: f.error }, { timed: { leaseExpiresAt: 0 } })),
    release: (f) => settled(f, t.fenced(f, DEDUP_OPEN, {}, { action: 'delete' })),
    async takeOver(o) {
      const row = mapped(await t.takeOver(o, o, DEDUP_OPEN, { attempts: true, updatedAt: false }), toDedupRow);
      if (row) held.hold(rowKey(o), row);
      return row;
    },
    async resolve(r) {
      const completed = r.as === 'completed';
      const patch = completed
        ? { status: 'completed', result: r.result ?? null, error: null, leaseToken: null, resolution: r.resolution }
        : { status: 'failed', error: r.error, leaseToken: null, resolution: r.resolution };
      const reply = await conn.script(
        RESOLVE,
        [rowKey(r)],
        [t.clock(r.now), JSON.stringify(patch), completed ? '1' : '0'],
      );
      return typeof reply === 'string' ? toDedupRow(reply) : undefined;
    },
    async renewLease(r) {
      const now = await t.fenced(r, DEDUP_OPEN, {}, { timed: { leaseExpiresAt: r.leaseMs } });
      if (now !== undefined) held.renewed(rowKey(r), r.leaseToken, now + r.leaseMs);
      else held.take(rowKey(r), r.leaseToken);
      return now !== undefined;
    },
    listStale: (now, limit = 1000) => t.listStale(now, limit, toDedupRow),
    ...dedupUpkeep(ctx),
    saga(name = 'idemgen_saga') {
      const known = sagas.get(name);
      if (known) return known;
      const s = sagaStore(table(conn, redisKeys(prefix, name), SAGA_OPEN));
      sagas.set(name, s);
      return s;
    },
    close: () => conn.close(),
  };
}
