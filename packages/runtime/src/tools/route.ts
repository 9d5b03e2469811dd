/**
 * Flat tool arguments → the grouped input the generated client takes (`OperationInput`): path, query,
 * header and cookie parameters by their spec names, the body under its own property. The grouped form is also what the dedup row hashes, as the client's `request` argument.
 */
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
