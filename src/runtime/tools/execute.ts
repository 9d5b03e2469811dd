/**
 * A tool binding as the engine's `OperationDescription` (client/operation.ts): the same data the generated
 * client's `ops` constant holds, so one validated tool call makes exactly the effect the client method makes,
 * through the same `executeOperation`. The differences are the tool boundary's own: a write classify refused
 * (`none`) is still deduplicated here (fail closed, tool-dedup), and every write accepts a key or an intent.
 */
import type { NamedDescription } from '../client/operation.js';
import type { ToolBinding } from './types.js';

/** native-key with an HTTP carrier: the API dedupes (docs/concepts.md#store-rules, second pattern); the runtime keeps no row. */
export function isNative(b: ToolBinding): boolean {
  return b.effect === 'write' && b.mechanism === 'native-key' && b.carrier !== undefined;
}

const described = new WeakMap<ToolBinding, NamedDescription>();

/** `b.mechanism` is a name: `createToolRuntime` read an `OP-N` spelling at its entry. */
function describe(b: ToolBinding): NamedDescription {
  const pathParams = b.routes.filter((r) => r.in === 'path').map((r) => r.name);
  const queryParams = b.routes.filter((r) => r.in === 'query').map((r) => r.name);
  const styled = b.routes.filter((r) => r.in === 'query' && r.style !== undefined);
  const write = b.effect === 'write';
  const d = {
    operation: b.operation,
    method: b.http.method,
    path: b.http.path,
    mechanism: !write ? 'none' : b.mechanism === 'none' ? 'fail-closed' : b.mechanism,
    ...(pathParams.length > 0 ? { pathParams } : {}),
    queryParams,
    ...(styled.length > 0 ? { queryStyles: Object.fromEntries(styled.map((r) => [r.name, r.style!])) } : {}),
    ...(b.body !== undefined
      ? {
          body: {
            encoding: b.body.encoding,
            ...(b.body.mediaType !== undefined ? { mediaType: b.body.mediaType } : {}),
          },
        }
      : {}),
    ...(write && isNative(b)
      ? {
          carrier: b.carrier!,
          ...(b.keyLimits ? { keyLimits: b.keyLimits } : {}),
          ...(b.replay !== undefined ? { replay: b.replay } : {}),
        }
      : {}),
    ...(write && b.ttlSeconds !== undefined ? { ttlSeconds: b.ttlSeconds } : {}),
    ...(write && b.compensation !== undefined ? { compensation: b.compensation } : {}),
    ...(write && b.verification !== undefined ? { verification: b.verification } : {}),
  };
  return d as NamedDescription;
}

/** The binding's description, built once per binding object. */
export function operationOf(b: ToolBinding): NamedDescription {
  let d = described.get(b);
  if (d === undefined) {
    d = describe(b);
    described.set(b, d);
  }
  return d;
}
