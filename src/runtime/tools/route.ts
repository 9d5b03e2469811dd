/**
 * Flat tool arguments → the request the generated client would build: the path template and its parameters
 * (an empty or dot-segment value throws `InvalidArgumentsError` here, before the key is claimed),
 * query/header/cookie grouped by their spec names, the body under its own property. The grouped form is also what the dedup row hashes, as the client's `request` argument.
 */
import { headersOf } from '../client/support.js';
import type { HttpRequest } from '../http/caller.js';
import { expandPath } from '../http/request-check.js';
import type { ToolBinding } from './types.js';

type Obj = Record<string, unknown>;

export interface RoutedRequest {
  path?: Obj;
  query?: Obj;
  header?: Obj;
  cookie?: Obj;
  body?: unknown;
}

export function routeArguments(binding: ToolBinding, args: Obj): RoutedRequest {
  const out: RoutedRequest = {};
  for (const route of binding.routes) {
    const value = args[route.property];
    if (value === undefined) continue;
    let group = out[route.in];
    if (group === undefined || group === null) {
      group = {};
      out[route.in] = group;
    }
    group[route.name] = value;
  }
  if (binding.body !== undefined && args[binding.body.property] !== undefined) out.body = args[binding.body.property];
  return out;
}

/** Everything `HttpCaller.send` needs except the key, its carrier, the mechanism and the run. */
export function toHttpRequest(binding: ToolBinding, routed: RoutedRequest): Omit<HttpRequest, 'mechanism'> {
  const req: Omit<HttpRequest, 'mechanism'> = {
    method: binding.http.method,
    path: binding.http.path,
    bodyType: binding.body?.encoding ?? 'none',
  };
  if (routed.path !== undefined) {
    expandPath(binding.http.path, routed.path); // refused here, before any key is claimed; `send` substitutes
    req.pathParams = routed.path;
  }
  if (routed.query !== undefined) {
    req.query = routed.query;
    const styles = binding.routes.filter((r) => r.in === 'query' && r.style !== undefined);
    if (styles.length > 0) req.queryStyles = Object.fromEntries(styles.map((r) => [r.name, r.style!]));
  }
  if (routed.header !== undefined || routed.cookie !== undefined) req.headers = headersOf(routed.header, routed.cookie);
  if (binding.body !== undefined) {
    if (routed.body !== undefined) req.body = routed.body;
    const raw = binding.body.encoding === 'text' || binding.body.encoding === 'binary';
    if (raw && binding.body.mediaType !== undefined) req.contentType = binding.body.mediaType;
  }
  return req;
}
