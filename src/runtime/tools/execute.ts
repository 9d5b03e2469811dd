/**
 * One validated tool call → exactly the effect the generated client would make (emit/client/client-class.ts),
 * with ONE dedup layer: OP-1 trusts the API's own key (no row), OP-5 runs the saga, every other write
 * claims one row (scope + operation + key) and sends inside it; reads are plain. Nothing here nests a
 * second claim, so a call can never conflict with itself (issue 14's withIdempotency + client bug).
 */
import { externalIdOf, nativeResult } from '../client/support.js';
import type { HttpCaller, HttpRequest } from '../http/caller.js';
import type { Idempotency } from '../core/idempotency.js';
import { sha256Hex } from '../core/canonical-json.js';
import { scopeString, validateKey, type KeyScope } from '../core/keys.js';
import { runSaga } from '../saga/run.js';
import type { DedupStore, StoreMechanism } from '../store/types.js';
import type { RoutedRequest } from './route.js';
import type { ToolBinding } from './types.js';
import { mechanismName } from '../core/mechanism.js';

export interface Execution {
  binding: ToolBinding;
  routed: RoutedRequest;
  request: Omit<HttpRequest, 'mechanism'>;
  key: string | undefined;
  scope: string | KeyScope | undefined;
  /** Credentials for the OP-5 inverse call (the same security as the call itself). */
  authHeaders?: Record<string, string>;
}

export interface ExecuteDeps {
  http: HttpCaller;
  idem: Idempotency | undefined;
  store: DedupStore | undefined;
  saga: { leaseMs?: number; waitMs?: number; pollMs?: number; now?: () => number; table?: string };
}

export interface Executed {
  result: unknown;
  wasReplay: boolean;
  originalCalledAt?: Date;
  /** The store could not keep the result (too large, no JSON): a retry will not get it back. */
  replayable?: false;
}

/** OP-1 with an HTTP carrier: the API dedupes (docs/concepts.md#store-rules, second pattern); the runtime keeps no row. */
export function isNative(b: ToolBinding): boolean {
  return b.effect === 'write' && b.mechanism === 'native-key' && b.carrier !== undefined;
}

/** The mechanism the dedup row records; a write classify refused (`none`) is still deduped at the tool boundary (OP-7). */
function storeMechanism(b: ToolBinding): StoreMechanism {
  const m = mechanismName(b.mechanism);
  if (m === 'none') return 'fail-closed';
  // A repeat of an idempotent method is harmless, so the row behaves like a dedup-table row.
  if (m === 'method-idempotent') return 'dedup-table';
  return m;
}

function missingStore(b: ToolBinding): Error {
  return new TypeError(`${b.operation} (${b.mechanism}) needs a dedup store: pass \`store\` to createToolRuntime`);
}

/**
 * OP-1 keeps no row, so the API's own dedup is the only namespace: two principals sending the same key to
 * one API account would replay each other's results. With a scope, the wire key is derived from
 * (scope, key) — stable across one principal's retries, distinct between principals, within the carrier's limits.
 */
function wireKey(key: string, scope: string | KeyScope | undefined, limits: ToolBinding['keyLimits']): string {
  const s = scopeString(scope);
  if (s === '') return key;
  const length = Math.max(limits?.minLength ?? 16, Math.min(limits?.maxLength ?? 64, 64));
  return sha256Hex(`${s}\n${key}`).slice(0, length);
}

async function native(d: ExecuteDeps, x: Execution): Promise<Executed> {
  const b = x.binding;
  const key = wireKey(validateKey(x.key, b.keyLimits ?? {}), x.scope, b.keyLimits);
  const c = b.carrier!;
  const carrier = {
    in: c.in,
    name: c.name,
    ...(c.path !== undefined ? { path: c.path } : {}),
    ...(c.paths !== undefined ? { paths: c.paths } : {}),
  };
  const res = await d.http.send({ ...x.request, key, carrier, mechanism: 'native-key' });
  // A native replay knows its original time only from a header that carries it (docs/concepts.md#replay): never the replay's Date.
  const r = nativeResult(res);
  return {
    result: r.result,
    wasReplay: r.wasReplay,
    ...(r.originalCalledAt !== undefined ? { originalCalledAt: r.originalCalledAt } : {}),
  };
}

async function saga(d: ExecuteDeps, x: Execution): Promise<Executed> {
  const b = x.binding;
  if (d.store === undefined) throw missingStore(b);
  const comp = b.compensation;
  const r = await runSaga(
    d.store,
    {
      operation: b.operation,
      key: x.key!,
      scope: x.scope,
      args: x.routed,
      ...d.saga,
      ...(comp !== undefined ? { compensationOperation: comp.operation } : {}),
      ...(b.ttlSeconds !== undefined ? { ttlSeconds: b.ttlSeconds } : {}),
    },
    {
      call: (ctx) =>
        d.http
          .send({ ...x.request, mechanism: 'saga', run: ctx })
          .then((res) => ({ externalId: externalIdOf(b.operation, res.body), result: res.body })),
      ...(comp !== undefined
        ? {
            // The inverse (`DELETE /things/{id}`) is addressed by the id the first call returned (saga, docs/concepts.md#mechanisms); an id
            // that is empty or a dot segment would address another resource, so `send` refuses it.
            compensate: (externalId: string) =>
              d.http
                .send({
                  method: comp.method,
                  path: comp.path,
                  pathParams: { [comp.idParameter]: externalId },
                  bodyType: 'none',
                  mechanism: 'saga',
                  ...(x.authHeaders ? { headers: x.authHeaders } : {}),
                })
                .then(() => undefined),
          }
        : {}),
    },
  );
  return { result: r.result, wasReplay: r.wasReplay, originalCalledAt: r.originalCalledAt };
}

export async function execute(d: ExecuteDeps, x: Execution): Promise<Executed> {
  const b = x.binding;
  if (b.effect === 'read') {
    const res = await d.http.send({ ...x.request, mechanism: 'none' });
    return { result: res.body, wasReplay: false };
  }
  if (isNative(b)) return native(d, x);
  if (b.mechanism === 'saga') return saga(d, x);
  if (d.idem === undefined) throw missingStore(b);
  const mechanism = storeMechanism(b);
  const r = await d.idem.run(
    {
      operation: b.operation,
      key: x.key!,
      scope: x.scope,
      args: x.routed,
      mechanism,
      ...(b.ttlSeconds !== undefined ? { ttlSeconds: b.ttlSeconds } : {}),
    },
    (ctx) => d.http.send({ ...x.request, mechanism, run: ctx }).then((res) => res.body),
  );
  const out: Executed = { result: r.result, wasReplay: r.wasReplay, originalCalledAt: r.originalCalledAt };
  if (r.replayable === false) out.replayable = false;
  return out;
}
