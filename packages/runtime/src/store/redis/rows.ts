/**
 * Rows as Redis values: one JSON object per row with the row's own property names (so `GET` shows an
 * operator exactly what `store.get` returns). Key layout per table: `<prefix>:{<table>}:row:<scope length>:<scope>:<key>`,
 * and nothing else: unresolved rows are found by scanning the rows (`listStale`), not through an index.
 * The `{table}` hash tag keeps a table's keys in one cluster slot, so a script over a batch of rows
 * stays legal on Redis Cluster too.
 */
import { IdempotencyRecordCorruptError } from '../../core/errors.js';
import { describeError } from '../../core/corrupt.js';
import type { DedupRow, DedupStatus, RowId, SagaRow, SagaStatus, StoreMechanism } from '../types.js';
import { mechanismName } from '../../core/mechanism.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,62}$/;

export interface RedisKeys {
  row(scope: string, key: string): string;
  /** SCAN pattern over every row of the table (listStale, prune). */
  rowPattern: string;
  /** The scope and key a row key names (undefined for a key of another layout). */
  idOf(rowKey: string): RowId | undefined;
}

export function redisKeys(prefix: string, table: string): RedisKeys {
  for (const [what, v] of [
    ['prefix', prefix],
    ['table', table],
  ] as const) {
    if (!NAME.test(v))
      throw new TypeError(`invalid ${what} ${JSON.stringify(v)}: use letters, digits, _ . - (≤ 63 chars)`);
  }
  const base = `${prefix}:{${table}}`;
  // The scope's length makes the split unambiguous whatever characters scope and key contain.
  const head = `${base}:row:`;
  return {
    row: (scope, key) => `${head}${scope.length}:${scope}:${key}`,
    rowPattern: `${head}*`,
    idOf(rowKey) {
      const m = rowKey.startsWith(head) ? /^(\d+):/.exec(rowKey.slice(head.length)) : null;
      if (!m) return undefined;
      const start = head.length + m[0].length;
      const length = Number(m[1]);
      return { scope: rowKey.slice(start, start + length), key: rowKey.slice(start + length + 1) };
    },
  };
}

type Json = Record<string, unknown>;

const text = (h: Json, k: string): string | null => (typeof h[k] === 'string' ? (h[k] as string) : null);
const int = (h: Json, k: string): number | null => (typeof h[k] === 'number' ? (h[k] as number) : null);

/** A stored value that does not parse as a row: typed, with the row's id when the caller knows it. */
function parseRow(json: string, id: RowId | undefined): Json {
  try {
    const h: unknown = JSON.parse(json);
    if (typeof h === 'object' && h !== null && !Array.isArray(h)) return h as Json;
    throw new TypeError(`a row is a JSON object, found ${h === null ? 'null' : typeof h}`);
  } catch (err) {
    throw new IdempotencyRecordCorruptError(
      `the stored row does not parse (${describeError(err)}): list and repair it with \`idemgen reconcile\``,
      { key: id?.key ?? '', scope: id?.scope ?? '', operation: '' },
      json,
      { cause: err },
    );
  }
}

export function toDedupRow(json: string, id?: RowId): DedupRow {
  const h = parseRow(json, id);
  return {
    scope: text(h, 'scope') ?? '',
    key: text(h, 'key') ?? '',
    operation: text(h, 'operation') ?? '',
    argsHash: text(h, 'argsHash') ?? '',
    mechanism: mechanismName(h.mechanism as StoreMechanism),
    status: h.status as DedupStatus,
    result: text(h, 'result'),
    error: text(h, 'error'),
    externalId: text(h, 'externalId'),
    leaseToken: text(h, 'leaseToken'),
    leaseExpiresAt: int(h, 'leaseExpiresAt') ?? 0,
    attempts: int(h, 'attempts') ?? 0,
    createdAt: int(h, 'createdAt') ?? 0,
    completedAt: int(h, 'completedAt'),
    expiresAt: int(h, 'expiresAt') ?? 0,
    argsSummary: text(h, 'argsSummary'),
    resolution: text(h, 'resolution'),
  };
}

export function toSagaRow(json: string): SagaRow {
  const h = JSON.parse(json) as Json;
  return {
    scope: text(h, 'scope') ?? '',
    key: text(h, 'key') ?? '',
    operation: text(h, 'operation') ?? '',
    argsHash: text(h, 'argsHash') ?? '',
    status: h.status as SagaStatus,
    externalId: text(h, 'externalId'),
    compensationOperation: text(h, 'compensationOperation'),
    result: text(h, 'result'),
    error: text(h, 'error'),
    leaseToken: text(h, 'leaseToken'),
    leaseExpiresAt: int(h, 'leaseExpiresAt') ?? 0,
    createdAt: int(h, 'createdAt') ?? 0,
    updatedAt: int(h, 'updatedAt') ?? 0,
    expiresAt: int(h, 'expiresAt') ?? 0,
  };
}

const q = JSON.stringify;
/** A number as JSON.stringify writes it (not finite → null). */
const num = (n: number | null): string => (n !== null && Number.isFinite(n) ? String(n) : 'null');

/**
 * A dedup row's JSON in the spans that stay fixed from claim to completion. The times are the server's
 * (Redis `TIME`): the CLAIM_ROW script joins `claimPrefix` and `tail` around the times it reads, the plain
 * claim joins them around the extrapolated server clock (`pendingText`), and COMPLETE_HELD joins
 * `completedPrefix` and `tail` around the completion's times — each exactly JSON.stringify's text of the row
 * (memory.ts pendingRow's field order; test/runtime/store/redis/rows.test.ts pins it on a live server).
 */
export interface RowSpans {
  head: string;
  /** `"leaseToken":"…"` as JSON.stringify writes it (COMPLETE_HELD finds it in the stored text). */
  token: string;
  /** From `,"argsSummary":` to the closing brace; ends `"resolution":null}` on a fresh claim. */
  tail: string;
}

export function rowSpans(r: DedupRow): RowSpans {
  return {
    head: `{"scope":${q(r.scope)},"key":${q(r.key)},"operation":${q(r.operation)},"argsHash":${q(r.argsHash)},"mechanism":${q(r.mechanism)},`,
    token: `"leaseToken":${q(r.leaseToken)}`,
    tail: `,"argsSummary":${q(r.argsSummary)},"resolution":${q(r.resolution)}}`,
  };
}

/** A fresh pending row up to its lease expiry; CLAIM_ROW appends the times, then `tail`. */
export const claimPrefix = (s: RowSpans): string =>
  `${s.head}"status":"pending","result":null,"error":null,"externalId":null,${s.token},"leaseExpiresAt":`;

/** A fresh pending row's whole text: the join CLAIM_ROW does, for the plain claim (plain-claim.ts). */
export const pendingText = (s: RowSpans, r: DedupRow): string =>
  `${claimPrefix(s)}${num(r.leaseExpiresAt)},"attempts":${num(r.attempts)},"createdAt":${num(r.createdAt)},` +
  `"completedAt":null,"expiresAt":${num(r.expiresAt)}${s.tail}`;

/** The completed row up to `completedAt`; COMPLETE_HELD appends the completion time, the window's end, then `tail`. */
export const completedPrefix = (s: RowSpans, r: DedupRow, result: string | null, externalId: string | null): string =>
  `${s.head}"status":"completed","result":${q(result)},"error":null,"externalId":${q(externalId)},${s.token},` +
  `"leaseExpiresAt":${num(r.leaseExpiresAt)},"attempts":${num(r.attempts)},"createdAt":${num(r.createdAt)},"completedAt":`;

/** A patch for the fenced script: `undefined` leaves a field alone, `null` clears it. */
export function patchOf(fields: Record<string, string | number | null | undefined>): string {
  return JSON.stringify(fields); // JSON.stringify drops undefined properties by itself
}

export const csv = (statuses: readonly string[]): string => `,${statuses.join(',')},`;
