/**
 * Redis / Valkey dedup store: the state machine of the SQL stores, the claim one plain `SET NX GET`
 * (plain-claim.ts) and every later transition one Lua script (scripts.ts), resolved rows expiring by
 * native TTL, stuck rows found by scanning the rows (no index written per call). Durability is the server's: run it with
 * AOF (`appendonly yes`, `appendfsync everysec` or `always`) — a cache that may drop keys on restart
 * or eviction is exactly the "dedup key only in memory" SOP §6 forbids, so use `maxmemory-policy
 * noeviction` (or `volatile-*`: pending rows carry no TTL and are never chosen).
 */
import { connectRedis, type RedisClientLike, type RedisConnection } from './client.js';
import { csv, patchOf, pendingText, redisKeys, rowSpans, toDedupRow, toSagaRow, type RedisKeys } from './rows.js';
import { pendingRow, pendingSagaRow, resolvedPatch } from '../memory.js';
import { CLAIM, COMPLETE_HELD, FENCED, RESOLVE, LIST_STALE, PRUNE, REPAIR, TAKE_OVER } from './scripts.js';
import { createPlainClaim } from './plain-claim.js';
import { createHeldRows, finishedText } from './held.js';
import type { StoreTimeouts } from '../unavailable.js';
import { corruptionOf, unreadableRow } from '../corrupt.js';
import type {
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

interface Table {
  keys: RedisKeys;
  open: string;
  fenced(f: FencedInput, allowed: string, fields: Fields, action?: 'set' | 'delete'): Promise<boolean>;
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

function table(conn: RedisConnection, keys: RedisKeys, open: string): Table {
  return {
    keys,
    open,
    async fenced(f, allowed, fields, action = 'set') {
      const args = [f.leaseToken, allowed, String(f.now), action, open, patchOf(fields)];
      return Number(await conn.script(FENCED, [keys.row(f.scope, f.key)], args)) === 1;
    },
    async get(id) {
      const v = await conn.command(['GET', keys.row(id.scope, id.key)]);
      return typeof v === 'string' ? v : undefined;
    },
    async claim(id, now, row) {
      const json = JSON.stringify(row);
      const reply = await conn.script(CLAIM, [keys.row(id.scope, id.key)], [String(now), open, json]);
      if (typeof reply === 'string') return { claimed: false, json: reply, written: false };
      return Array.isArray(reply)
        ? { claimed: true, json: String(reply[1]), written: false }
        : { claimed: true, json, written: true };
    },
    async takeOver(id, o, allowed, extra) {
      const reply = await conn.script(
        TAKE_OVER,
        [keys.row(id.scope, id.key)],
        [
          o.expectedToken ?? '',
          o.newToken,
          String(o.now),
          String(o.now + o.leaseMs),
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
        for (const json of (await conn.script(LIST_STALE, page, [String(now), open])) as string[]) {
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
    transition: (s) =>
      t.fenced(s, csv(s.from), {
        status: s.to,
        externalId: s.externalId,
        result: s.result,
        error: s.error,
        updatedAt: s.now,
        leaseExpiresAt: s.leaseMs === undefined ? undefined : s.now + s.leaseMs,
      }),
    takeOver: async (o) => mapped(await t.takeOver(o, o, csv(o.from), { attempts: false, updatedAt: true }), toSagaRow),
    release: (f) => t.fenced(f, csv(['pending']), {}, 'delete'),
    renewLease: (r) => t.fenced(r, t.open, { leaseExpiresAt: r.now + r.leaseMs, updatedAt: r.now }),
    listStale: (now, limit = 1000) => t.listStale(now, limit, toSagaRow),
  };
}

const isOne = (reply: unknown): boolean => Number(reply) === 1;
const mapped = <R>(json: string | undefined, to: (json: string) => R): R | undefined => (json ? to(json) : undefined);

export function createRedisStore(opts: RedisStoreOptions): FullDedupStore {
  const conn = connectRedis(opts, [CLAIM, RESOLVE, FENCED, COMPLETE_HELD, TAKE_OVER, LIST_STALE, PRUNE, REPAIR]);
  const prefix = opts.prefix ?? 'idemgen';
  const t = table(conn, redisKeys(prefix, opts.table ?? 'idemgen_dedup'), DEDUP_OPEN);
  const sagas = new Map<string, SagaStore>();
  const held = createHeldRows();
  const plainClaim = createPlainClaim(conn);
  const rowKey = (id: RowId): string => t.keys.row(id.scope, id.key);
  /** Settles a held row's entry (whatever the script answers, this token no longer needs it). */
  const settled = <R>(f: FencedInput, p: Promise<R>): Promise<R> => {
    held.take(rowKey(f), f.leaseToken);
    return p;
  };
  return {
    async claim(i): Promise<ClaimResult> {
      // One command (or one script) decides: unlike the SQL store there is no insert-then-read window to retry.
      const row = pendingRow(i, null);
      const key = rowKey(i);
      const spans = rowSpans(row);
      const text = pendingText(spans);
      const plain = await plainClaim(key, row, text);
      if (plain !== undefined) {
        if (plain.claimed) held.hold(key, row, spans);
        return plain;
      }
      const { claimed, json, written } = await t.claim(i, i.now, row);
      const out = written ? row : toDedupRow(json);
      if (claimed) held.hold(key, out, written ? spans : undefined);
      return { claimed, row: out } as ClaimResult;
    },
    async get(id): Promise<DedupRow | undefined> {
      const json = await t.get(id);
      return json === undefined ? undefined : toDedupRow(json, id);
    },
    complete(c) {
      const key = rowKey(c);
      const h = held.take(key, c.leaseToken);
      if (h === undefined) {
        const externalId = c.externalId ?? null;
        const patch = { status: 'completed', result: c.result, externalId, error: null, completedAt: c.now };
        return t.fenced(c, DEDUP_OPEN, patch);
      }
      const args = [
        `"leaseToken":${JSON.stringify(c.leaseToken)}`,
        finishedText(h, c),
        String(Math.max(1, h.row.expiresAt - c.now)),
        c.leaseToken,
      ];
      return conn.script(COMPLETE_HELD, [key], args).then(isOne);
    },
    fail: (f) => settled(f, t.fenced(f, DEDUP_OPEN, { status: 'failed', error: f.error, completedAt: f.now })),
    markUnknown: (f) => settled(f, t.fenced(f, DEDUP_OPEN, { error: f.error, leaseExpiresAt: f.now })),
    release: (f) => settled(f, t.fenced(f, DEDUP_OPEN, {}, 'delete')),
    async takeOver(o) {
      const row = mapped(await t.takeOver(o, o, DEDUP_OPEN, { attempts: true, updatedAt: false }), toDedupRow);
      if (row) held.hold(rowKey(o), row);
      return row;
    },
    async resolve(r) {
      const patch = { ...resolvedPatch(r) } as Record<string, unknown>;
      const reply = await conn.script(RESOLVE, [rowKey(r)], [String(r.now), JSON.stringify(patch)]);
      return typeof reply === 'string' ? toDedupRow(reply) : undefined;
    },
    async renewLease(r) {
      const ok = await t.fenced(r, DEDUP_OPEN, { leaseExpiresAt: r.now + r.leaseMs });
      if (ok) held.renewed(rowKey(r), r.leaseToken, r.now + r.leaseMs);
      else held.take(rowKey(r), r.leaseToken);
      return ok;
    },
    listStale: (now, limit = 1000) => t.listStale(now, limit, toDedupRow),
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
      const repaired = { ...row, result: null, ...resolvedPatch(r) };
      return isOne(await conn.script(REPAIR, [rowKey(r)], [r.seen, JSON.stringify(repaired)]));
    },
    async prune(now) {
      // Native TTL already drops resolved rows; this sweeps those whose logical `expiresAt` passed first.
      let removed = 0;
      await scanRows(conn, t.keys.rowPattern, async (page) => {
        removed += Number(await conn.script(PRUNE, page, [String(now), DEDUP_OPEN]));
      });
      return removed;
    },
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
