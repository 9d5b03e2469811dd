/** Effective server URLs (OpenAPI 3: operation > path item > document; Swagger 2: schemes + host + basePath). */
import { isObject } from '../json-pointer/refs.js';
import { stringArray } from './context.js';
import type { RawDocument, RawOperation } from './raw.js';

/** OpenAPI 3 Server Objects → URLs with `{variables}` replaced by their defaults. */
export function serverUrls(servers: unknown): string[] | undefined {
  if (!Array.isArray(servers) || servers.length === 0) return undefined;
  const urls: string[] = [];
  for (const server of servers) {
    if (!isObject(server) || typeof server.url !== 'string') continue;
    const vars = isObject(server.variables) ? server.variables : {};
    urls.push(
      server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
        const v = vars[name];
        return isObject(v) && v.default !== undefined ? String(v.default) : whole;
      }),
    );
  }
  return urls.length > 0 ? urls : undefined;
}

/** Swagger 2.0 §5.1: scheme defaults to the one used to fetch the spec; we assume https. */
export function swaggerServers(root: RawDocument, operation: RawOperation): string[] {
  const host = typeof root.host === 'string' ? root.host : '';
  const basePath = typeof root.basePath === 'string' ? root.basePath : '';
  if (host === '') return basePath === '' ? [] : [basePath];
  const opSchemes = stringArray(operation.schemes);
  const schemes = opSchemes.length > 0 ? opSchemes : stringArray(root.schemes);
  return (schemes.length > 0 ? schemes : ['https']).map((s) => `${s}://${host}${basePath}`);
}
