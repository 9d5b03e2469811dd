/**
 * Settling an unknown outcome by reading the API (types.ts): the stamp a client-reference write carries, and
 * `settleUnknown`, which runs a plan's lookup read — only ever a GET — and concludes found / absent / unknown.
 * The client and tool engine (client/operation.ts) and `reconcile --verify` both call it.
 */
import { sha256Hex } from '../core/canonical-json.js';
import { HttpStatusError, type HttpCaller, type HttpRequest } from '../http/caller.js';
import type { LookupRead, LookupValue, SettleOptions, Verdict, VerificationPlan } from './types.js';

type Input = { path?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };

/** The value a client-reference write is stamped with: stable for one (scope, key), distinct between principals. */
export function stampOf(key: string, scope = ''): string {
  return `idem-${sha256Hex(`${scope}\n${key}`).slice(0, 32)}`;
}

function getPath(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const seg of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[seg];
  }
  return at;
}

/**
 * The input with the stamp in place, unless the caller already chose a value there (then that value is the
 * reference the lookup uses). A body that is not an object is left as it is.
 */
export function applyStamp<T extends Input>(plan: VerificationPlan, input: T, stamp: string): T {
  if (plan.shape !== 'client-reference') return input;
  const body = input.body ?? {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return input;
  if (getPath(body, plan.stamp.path) !== undefined) return input;
  const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  let at = copy;
  const path = plan.stamp.path;
  for (const seg of path.slice(0, -1)) {
    const next = at[seg];
    const made: Record<string, unknown> = typeof next === 'object' && next !== null ? { ...next } : {};
    at[seg] = made;
    at = made;
  }
  at[path[path.length - 1]!] = stamp;
  return { ...input, body: copy };
}

/** The reference a client-reference lookup searches for: the stamped field's value. */
export function referenceOf(plan: VerificationPlan, input: Input, stamp: string): string {
  if (plan.shape !== 'client-reference') return stamp;
  const v = getPath(input.body, plan.stamp.path);
  return typeof v === 'string' || typeof v === 'number' ? String(v) : stamp;
}

export interface SettleCall {
  /** The write's grouped input as sent (stamped). */
  input: Input;
  /** The reference the call carries (`referenceOf`). */
  reference: string;
  /** When the write was claimed: a resource created well before it is not this call's. */
  claimedAt?: number;
  /** Headers (credentials) and query credentials the lookup sends, as the write did. */
  headers?: Record<string, string>;
  query?: Record<string, string>;
  signal?: AbortSignal;
}

function lookupValue(v: LookupValue, call: SettleCall): unknown {
  if (v.from === 'stamp')
    return v.template === undefined ? call.reference : v.template.split('{stamp}').join(call.reference);
  if (v.from === 'stamp-object') return { [v.field]: call.reference };
  const group = v.in === 'body' ? call.input.body : call.input[v.in];
  return v.in === 'body' ? getPath(group, v.name.split('.')) : (group as Record<string, unknown> | undefined)?.[v.name];
}

/** The read request, or why it cannot be made (an argument the call did not carry). */
function readRequest(read: LookupRead, call: SettleCall): HttpRequest | string {
  const pathParams: Record<string, unknown> = {};
  const query: Record<string, unknown> = { ...call.query };
  for (const a of read.args) {
    const v = lookupValue(a.value, call);
    if (v === undefined || v === null || v === '')
      return `the call carries no value for the lookup's ${a.in} ${a.name}`;
    if (a.in === 'path') pathParams[a.name] = v;
    else query[a.name] = v;
  }
  const req: HttpRequest = {
    method: read.method,
    path: read.path,
    bodyType: 'none',
    operation: read.operation,
    mechanism: 'none',
    pathParams,
    query,
  };
  if (call.headers !== undefined) req.headers = call.headers;
  if (call.signal !== undefined) req.signal = call.signal;
  return req;
}

const CREATED = ['created_at', 'createdAt', 'created', 'creation_date', 'createdDate'];

/** A found resource whose own creation time is well before the claim existed before this call. */
function createdBefore(resource: unknown, claimedAt: number | undefined): number | undefined {
  if (claimedAt === undefined || typeof resource !== 'object' || resource === null) return undefined;
  for (const name of CREATED) {
    const v = (resource as Record<string, unknown>)[name];
    const t = typeof v === 'number' ? (v < 1e11 ? v * 1000 : v) : typeof v === 'string' ? Date.parse(v) : Number.NaN;
    // Five minutes of clock skew between us and the API are allowed.
    if (Number.isFinite(t) && t < claimedAt - 300_000) return t;
  }
  return undefined;
}

async function readOnce(http: HttpCaller, read: LookupRead, call: SettleCall): Promise<Verdict> {
  const req = readRequest(read, call);
  if (typeof req === 'string') return { status: 'unknown', evidence: req };
  const what = `${read.operation}`;
  let body: unknown;
  try {
    body = (await http.send(req)).body;
  } catch (err) {
    if (err instanceof HttpStatusError && read.items === undefined && (err.status === 404 || err.status === 410))
      return { status: 'absent', evidence: `${what} answered ${err.status}` };
    const why = err instanceof HttpStatusError ? `answered ${err.status}` : `failed (${(err as Error).message})`;
    return { status: 'unknown', evidence: `${what} ${why}` };
  }
  if (read.items === undefined) {
    const before = createdBefore(body, call.claimedAt);
    if (before !== undefined)
      return {
        status: 'unknown',
        evidence: `${what} found a resource created ${new Date(before).toISOString()}, before this call`,
      };
    return { status: 'found', resource: body, evidence: `${what} answered 2xx` };
  }
  const items = getPath(body, read.items);
  if (!Array.isArray(items)) return { status: 'unknown', evidence: `${what}: the response holds no list of items` };
  const match = read.matchPath;
  const hits =
    match === undefined
      ? items
      : items.filter((it) => {
          const v = getPath(it, match);
          return v === undefined || String(v) === call.reference;
        });
  const filter = read.args
    .filter((a) => a.value.from !== 'request')
    .map((a) => `${a.in} ${a.name}`)
    .join(', ');
  if (hits.length === 0) return { status: 'absent', evidence: `${what} filtered by ${filter}: no match` };
  if (hits.length > 1)
    return { status: 'unknown', evidence: `${what} filtered by ${filter}: ${hits.length} matches (ambiguous)` };
  return { status: 'found', resource: hits[0], evidence: `${what} filtered by ${filter}: one match` };
}

/**
 * Settle one unknown outcome by its plan's lookup: re-read an absent answer `reads` times, `delayMs` apart
 * (eventually consistent reads), stop at the first found or undecidable answer. `refused-duplicate` without a
 * read cannot be settled by reading: unknown (its engine runs the write once more instead).
 */
export async function settleUnknown(
  http: HttpCaller,
  plan: VerificationPlan,
  call: SettleCall,
  settle: SettleOptions = {},
): Promise<Verdict> {
  const read = plan.read;
  if (read === undefined) return { status: 'unknown', evidence: 'no lookup read: only a repeat can tell' };
  const reads = Math.max(1, Math.min(settle.reads ?? 3, 10));
  const delayMs = Math.max(0, Math.min(settle.delayMs ?? 500, 10_000));
  let last: Verdict = { status: 'unknown', evidence: 'not read' };
  for (let i = 1; i <= reads; i++) {
    last = await readOnce(http, read, call);
    if (last.status !== 'absent') return i > 1 ? { ...last, evidence: `${last.evidence} (read ${i})` } : last;
    if (i < reads) await new Promise((r) => setTimeout(r, delayMs));
  }
  return { ...last, evidence: `${last.evidence} (${reads} reads, ${delayMs} ms apart)` };
}

/** What a row keeps to look its call up later: the reference and the request values the read is addressed by. */
export interface LookupRecord {
  shape: VerificationPlan['shape'];
  reference: string;
  values: Record<string, unknown>;
}

export function lookupRecord(plan: VerificationPlan, input: Input, reference: string): LookupRecord {
  const values: Record<string, unknown> = {};
  for (const a of plan.read?.args ?? []) {
    if (a.value.from !== 'request') continue;
    const v = lookupValue(a.value, { input, reference });
    if (v !== undefined) values[`${a.value.in}.${a.value.name}`] = v;
  }
  return { shape: plan.shape, reference, values };
}

/** A stored `LookupRecord` (the row's argument summary) back as the call `settleUnknown` takes; undefined when none. */
export function callFromSummary(summary: unknown): SettleCall | undefined {
  const rec = (summary as { verify?: Partial<LookupRecord> } | null)?.verify;
  if (typeof rec !== 'object' || rec === null || typeof rec.reference !== 'string') return undefined;
  const input: { path: Record<string, unknown>; query: Record<string, unknown>; body: Record<string, unknown> } = {
    path: {},
    query: {},
    body: {},
  };
  for (const [k, v] of Object.entries(rec.values ?? {})) {
    const [where, ...rest] = k.split('.');
    if (where === 'path' || where === 'query') input[where][rest.join('.')] = v;
    else if (where === 'body') {
      let at = input.body;
      for (const seg of rest.slice(0, -1)) {
        if (typeof at[seg] !== 'object' || at[seg] === null) at[seg] = {};
        at = at[seg] as Record<string, unknown>;
      }
      at[rest[rest.length - 1]!] = v;
    }
  }
  return { input, reference: rec.reference };
}
