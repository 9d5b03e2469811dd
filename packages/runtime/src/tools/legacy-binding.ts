/**
 * The door every binding enters the runtime through (`parseToolBindings`, `createToolRuntime`): a binding
 * generated before the operation record is read as one. Such a binding named the client method `method` and
 * the request `http: { method, path }`, and its record members were derived again here from its routes (the
 * declared path and query parameters, their styles); mechanisms may be spelled `OP-1`…`OP-5`. A binding in the
 * current shape passes through as it is (the same object).
 */
import { mechanismName } from '../core/mechanism.js';
import type { OperationDescription } from '../client/operation.js';
import type { ArgRoute, ToolBinding } from './types.js';

/** A binding as idemgen generated it before the record (what an older `*.bindings.gen.ts` holds). */
export interface LegacyToolBinding extends Omit<ToolBinding, 'clientMethod' | 'method' | 'path' | 'body'> {
  /** The client method name. */
  method: string;
  http: { method: string; path: string };
  body?: {
    property: string;
    encoding: NonNullable<OperationDescription['body']>['encoding'];
    mediaType?: string;
    required: boolean;
  };
}

function isCurrent(b: ToolBinding | LegacyToolBinding): b is ToolBinding {
  return typeof (b as ToolBinding).clientMethod === 'string';
}

const unique = (names: string[]): string[] => [...new Set(names)];

/**
 * The record members a binding's routes imply: its path and query parameters and their styles. A legacy binding
 * had only these; the bindings file leaves them out where they are exactly this (bindings-file.ts).
 */
export function routeParams(
  routes: readonly ArgRoute[],
): Pick<ToolBinding, 'pathParams' | 'queryParams' | 'queryStyles'> {
  const pathParams = unique(routes.filter((r) => r.in === 'path').map((r) => r.name));
  const styled = routes.filter(
    (r): r is ArgRoute & { style: NonNullable<ArgRoute['style']> } => r.in === 'query' && r.style !== undefined,
  );
  return {
    ...(pathParams.length > 0 ? { pathParams } : {}),
    queryParams: unique(routes.filter((r) => r.in === 'query').map((r) => r.name)),
    ...(styled.length > 0 ? { queryStyles: Object.fromEntries(styled.map((r) => [r.name, r.style])) } : {}),
  };
}

/** What the runtime used to derive from a legacy binding's routes, and its request. */
function fromLegacy(b: LegacyToolBinding): ToolBinding {
  const { method, http, routes, ...rest } = b;
  const write = b.effect === 'write';
  const out: ToolBinding = {
    ...rest,
    clientMethod: method,
    method: http.method,
    path: http.path,
    routes,
    // A read was a plain call whatever it said; a native key only with its carrier on a write.
    mechanism: write ? mechanismName(b.mechanism) : 'none',
    ...routeParams(routes),
  };
  if (!write) {
    const { carrier: _c, keyLimits: _l, replay: _r, ttlSeconds: _t, compensation: _s, verification: _v, ...read } = out;
    return read;
  }
  return out;
}

/** One binding in the current shape, whatever shape it was generated in. */
export function decodeBinding(b: ToolBinding | LegacyToolBinding): ToolBinding {
  if (!isCurrent(b)) return fromLegacy(b);
  return b.mechanism.startsWith('OP-') ? { ...b, mechanism: mechanismName(b.mechanism) } : b;
}
