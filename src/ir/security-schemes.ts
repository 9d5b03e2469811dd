/**
 * The document's security schemes (OAS 3 `components.securitySchemes`, Swagger 2 `securityDefinitions`)
 * and the environment variable a server-side credential for one of them is read from. One reader for the
 * tool schemas (which parameters are credentials), the tool bindings, the generated MCP module and `serve`.
 */
type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** In the 3.x form: a Swagger 2 `type: basic` scheme reads as `type: http, scheme: basic`. */
export function securitySchemesOf(root: unknown): Obj {
  if (!isObj(root)) return {};
  const components = isObj(root.components) ? root.components : {};
  if (isObj(components.securitySchemes)) return components.securitySchemes;
  if (!isObj(root.securityDefinitions)) return {};
  const out: Obj = {};
  for (const [name, s] of Object.entries(root.securityDefinitions))
    out[name] = isObj(s) && s.type === 'basic' ? { ...s, type: 'http', scheme: 'basic' } : s;
  return out;
}

/** `IDEMGEN_AUTH_<SCHEME>`: the scheme name upper-cased, every other character run as `_`. */
export const authEnvName = (scheme: string): string =>
  `IDEMGEN_AUTH_${scheme.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`;
