/**
 * A recording node:http server on 127.0.0.1 that checks every request it receives against the spec with
 * openapi-backend (a validator we did not write): the route (method + path template), path/query/header
 * parameters with their style and explode, and the body schema through Ajv. Two checks openapi-backend
 * leaves out are added here: the request's content type is one the operation declares, and an operation
 * without a request body receives none. It answers every request with a JSON object carrying an `id`,
 * enough for the runtime to finish a write (a saga records that id for its compensation).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';
import { parse as parseQs } from 'qs';

interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The operation the validator routed the request to (`POST /v1/charges`), or undefined when none matched. */
  matched: string | undefined;
  /** What the validator said, one line each (`query/limit: must be integer`); empty when conformant. */
  errors: string[];
  /** Which part of the request each error is about (path, query, header, body, content-type, route). */
  categories: string[];
}

export interface ValidatingServer {
  url: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
type Obj = Record<string, unknown>;

/**
 * A deep copy of the spec, adjusted where openapi-backend's Ajv cannot take a valid spec as it is:
 * - examples are left out (GitHub's contain literal `$ref` keys that break dereferencing);
 * - every operation's id becomes its operation key (`GET /v1/customers`), the name idemgen's bindings use
 *   (operations without an id cannot be validated at all);
 * - OpenAPI 3.0 `nullable: true` without a `type` (Ajv refuses to compile it) becomes `anyOf [schema, null]`,
 *   and a nullable `enum` lists null; `nullable: true` beside a `$ref` (OpenAI's 3.1 spec:
 *   `response_format: {$ref, nullable: true}`) becomes `anyOf [{$ref}, null]`, as the IR reads it (a
 *   3.1 validator ignores the unknown keyword, so null would be refused though the spec's author allows it);
 * - a parameter schema's `oneOf` becomes `anyOf`: parameters arrive as text, so `"438"` for `oneOf
 *   [integer, string]` matches both and no request could ever pass;
 * - a path key with a fixed query (OpenAI: `/responses/{id}?beta=true`, beside `/responses/{id}`) moves to
 *   `/responses/{id}/__fixed_query__/<n>`: a request whose query holds every fixed pair is routed there,
 *   those pairs taken off its query (see `fixedRoute`). openapi-backend cannot route on a query.
 */
function prepareDocument(doc: Obj): { document: Document; fixed: FixedQuery[] } {
  const copy = rebuild(doc) as Obj;
  const fixed: FixedQuery[] = [];
  const paths = (copy.paths as Record<string, Obj>) ?? {};
  for (const key of Object.keys(paths)) {
    const q = key.indexOf('?');
    if (q < 0) continue;
    const alias = `${key.slice(0, q).replace(/\/$/, '')}/__fixed_query__/${fixed.length}`;
    fixed.push({ suffix: `/__fixed_query__/${fixed.length}`, pairs: [...new URLSearchParams(key.slice(q + 1))] });
    const item = paths[key]!;
    for (const m of METHODS) {
      const op = item?.[m] as Obj | undefined;
      if (op !== null && typeof op === 'object') op.operationId = `${m.toUpperCase()} ${key}`;
    }
    delete paths[key];
    paths[alias] = item;
  }
  const params: unknown[] = Object.values(((copy.components as Obj | undefined)?.parameters as Obj) ?? {});
  for (const [path, item] of Object.entries(paths)) {
    if (item === null || typeof item !== 'object') continue;
    params.push(...((item.parameters as unknown[]) ?? []));
    for (const m of METHODS) {
      const op = item[m] as Obj | undefined;
      if (op === null || typeof op !== 'object') continue;
      if (!path.includes('/__fixed_query__/')) op.operationId = `${m.toUpperCase()} ${path}`;
      params.push(...((op.parameters as unknown[]) ?? []));
    }
  }
  for (const p of params) {
    const schema = (p as { schema?: Obj } | null)?.schema;
    if (schema?.oneOf !== undefined) {
      schema.anyOf = schema.oneOf;
      delete schema.oneOf;
    }
  }
  return { document: copy as unknown as Document, fixed };
}

/** A path key's fixed query (`?beta=true`) and the suffix of the path its operations moved to. */
interface FixedQuery {
  suffix: string;
  pairs: [string, string][];
}

/**
 * The path and query to validate: when the query holds every pair of a fixed-query path whose operation
 * matches, that path (most pairs first) and the query without those pairs; else as received.
 */
function fixedRoute(api: OpenAPIBackend, fixed: FixedQuery[], method: string, path: string, raw: string) {
  const pairs = [...new URLSearchParams(raw)];
  const byMost = [...fixed].sort((a, b) => b.pairs.length - a.pairs.length);
  for (const f of byMost) {
    const at = f.pairs.map(([k, v]) => pairs.findIndex(([pk, pv]) => pk === k && pv === v));
    if (at.some((i) => i < 0)) continue;
    const aliased = `${path.replace(/\/$/, '')}${f.suffix}`;
    if (api.router.matchOperation({ method, path: aliased, headers: {} }) === undefined) continue;
    return { path: aliased, query: new URLSearchParams(pairs.filter((_, i) => !at.includes(i))).toString() };
  }
  return { path, query: raw };
}

/** `parent`: the key this node sits under (`properties` holds names, where `example` is a property). */
function rebuild(node: unknown, parent = ''): unknown {
  if (Array.isArray(node)) return node.map((v) => rebuild(v));
  if (node === null || typeof node !== 'object') return node;
  const out: Obj = {};
  for (const [k, v] of Object.entries(node)) {
    // examples play no part in validation, and GitHub's hold literal "$ref" keys the dereferencer follows
    if ((k === 'example' || k === 'examples') && parent !== 'properties') continue;
    out[k] = rebuild(v, k);
  }
  // OpenAPI 3.0 `nullable: true` admits null; an `enum` beside it that does not list null would refuse it
  // again under Ajv (GitHub: `"resolution": null` to clear an alert's resolution). Read as the IR reads it.
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (out.nullable === true && out.type === undefined) {
    delete out.nullable;
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

interface QueryParam {
  name: string;
  in: string;
  style?: string;
  explode?: boolean;
  schema?: { type?: unknown; properties?: Obj };
}

/** The property names of a form-style exploded object parameter (dereferenced by openapi-backend), else undefined. */
function spreadProperties(p: QueryParam): Set<string> | undefined {
  if ((p.style ?? 'form') !== 'form' || p.explode === false || p.schema?.type !== 'object') return undefined;
  return p.schema.properties === undefined ? undefined : new Set(Object.keys(p.schema.properties));
}

/**
 * The query as the operation declares it, not as qs would read any string: a deepObject parameter
 * from its bracketed keys (`filter[kind]=big`), every other one from its exact name (repeated for an
 * exploded array: `tag=a&tag=b`; a non-exploded one stays text for openapi-backend to split). A key no
 * parameter declares (`tag[0]=a` for a form-style `tag`) is kept under its own name, so the validator's
 * "must NOT have additional properties" reports it.
 */
function queryOf(operation: Operation, raw: string): Obj {
  const pairs = [...new URLSearchParams(raw)];
  const used = new Set<number>();
  const out: Obj = {};
  const declared = ((operation.parameters ?? []) as QueryParam[]).filter((p) => p.in === 'query');
  const names = new Set(declared.map((p) => p.name));
  for (const p of declared) {
    // an exploded form-style object (OpenAPI's default) is written as its own properties: `gt=1&lt=2`
    const props = spreadProperties(p);
    const mine = pairs
      .map((pair, i) => [pair, i] as const)
      .filter(
        ([[k]]) =>
          k === p.name ||
          (p.style === 'deepObject' && k.startsWith(`${p.name}[`)) ||
          (props?.has(k) === true && !names.has(k)),
      );
    if (mine.length === 0) continue;
    for (const [, i] of mine) used.add(i);
    if (props !== undefined) out[p.name] = Object.fromEntries(mine.map(([[k, v]]) => [k, v]));
    else if (p.style === 'deepObject') {
      const parsed = parseQs(new URLSearchParams(mine.map(([pair]) => pair)).toString(), {
        depth: 32,
        arrayLimit: 1000,
      });
      out[p.name] = parsed[p.name];
    } else out[p.name] = mine.length === 1 ? mine[0]![0][1] : mine.map(([[, v]]) => v);
  }
  for (const [i, [k, v]] of pairs.entries()) if (!used.has(i)) out[k] = v;
  return out;
}

/**
 * The headers as the operation declares them: a `simple`-style array header (`openai-beta: a,b`) split at
 * its commas, which openapi-backend does not do (it would check the text against the array schema).
 */
function headersOf(operation: Operation, headers: Obj): Obj {
  const out: Obj = { ...headers };
  for (const p of (operation.parameters ?? []) as QueryParam[]) {
    const key = p.name.toLowerCase();
    if (p.in === 'header' && p.schema?.type === 'array' && typeof out[key] === 'string')
      out[key] = (out[key] as string).split(',');
  }
  return out;
}

function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

function mediaMatches(declared: string, actual: string): boolean {
  const d = mediaTypeOf(declared);
  if (d === actual || d === '*/*') return true;
  if (d.endsWith('/*')) return actual.startsWith(d.slice(0, -1));
  return false;
}

function categoryOf(instancePath: string, keyword: string): string {
  if (keyword === 'parse') return instancePath.startsWith('/query') ? 'query' : 'body';
  const head = instancePath.split('/')[1] ?? '';
  if (head === 'requestBody' || head === '') return 'body';
  return head === 'header' ? 'header' : head;
}

/**
 * The body as the validator should see it: form and multipart bodies decoded (bracketed names → deep
 * objects and arrays; a file part → its text), JSON parsed.
 */
async function decodeBody(contentType: string, header: string, bytes: Buffer): Promise<unknown> {
  const text = bytes.toString('utf8');
  if (contentType === 'multipart/form-data') {
    const form = await new Response(new Uint8Array(bytes), { headers: { 'content-type': header } }).formData();
    const flat = new URLSearchParams();
    for (const [name, part] of form) flat.append(name, typeof part === 'string' ? part : await part.text());
    return parseQs(flat.toString(), { depth: 32, arrayLimit: 1000 });
  }
  if (contentType === 'application/x-www-form-urlencoded') return parseQs(text, { depth: 32, arrayLimit: 1000 });
  if (contentType === 'application/json' || contentType.endsWith('+json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * Two validators over the same spec: the plain one, and one whose body validator converts strings
 * ("12" → 12 where the schema says integer) for form and multipart bodies, where every value arrives as
 * text, as an API decoding the form would. The second is built on the first form body.
 */
function backend(definition: Document, coerceBody: boolean): OpenAPIBackend {
  return new OpenAPIBackend({
    definition,
    strict: false,
    validate: true,
    // quick: no definition lint (real specs break its rules: Stripe repeats enum values), validators
    // compiled on first use, so a 1,000-operation spec costs only the operations called
    quick: true,
    // a spec's own schema slips are not the request's fault
    ajvOpts: { strict: false, validateSchema: false, logger: false },
    customizeAjv: (ajv, options, context) => {
      if (!coerceBody || context !== 'requestBodyValidator') return ajv;
      // CommonJS packages seen from NodeNext ESM: the class and the function sit on `.default`
      const coercing = new AjvModule.default({ ...options, coerceTypes: 'array' });
      addFormatsModule.default(coercing);
      return coercing;
    },
  } as ConstructorParameters<typeof OpenAPIBackend>[0]);
}

export async function startValidatingServer(document: Obj): Promise<ValidatingServer> {
  const prepared = prepareDocument(document);
  const api = backend(prepared.document, false);
  await api.init();
  let formApi: OpenAPIBackend | undefined;
  const formBackend = async () => {
    if (formApi === undefined) {
      formApi = backend(prepareDocument(document).document, true);
      await formApi.init();
    }
    return formApi;
  };
  const received: ReceivedRequest[] = [];

  // Node's default 16 KiB header limit answers 431 before the handler sees the request: a sampled Stripe GET whose
  // body fields moved to the query (e.g. `GET /v1/invoices/upcoming/lines`) is longer. The harness checks requests
  // against the spec, not one server's size limit, so the limit here is 1 MiB.
  const server: Server = createServer({ maxHeaderSize: 1024 * 1024 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const bytes = Buffer.concat(chunks);
      const body = bytes.toString('utf8');
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const method = (req.method ?? 'GET').toLowerCase();
      const routed = fixedRoute(
        api,
        prepared.fixed,
        method,
        q < 0 ? url : url.slice(0, q),
        q < 0 ? '' : url.slice(q + 1),
      );
      const path = routed.path;
      const record: ReceivedRequest = {
        method: req.method ?? 'GET',
        url,
        headers: req.headers,
        body,
        matched: undefined,
        errors: [],
        categories: [],
      };
      const fail = (category: string, message: string) => {
        record.errors.push(message);
        record.categories.push(category);
      };
      const operation = api.router.matchOperation({ method, path, headers: {} }) as Operation | undefined;
      if (operation === undefined)
        fail('route', `no operation of the spec matches ${req.method} ${q < 0 ? url : url.slice(0, q)}`);
      else {
        record.matched = operation.operationId;
        const contentType = mediaTypeOf(req.headers['content-type']);
        const declared = Object.keys((operation.requestBody as { content?: Obj } | undefined)?.content ?? {});
        const hasBody = body.length > 0;
        if (hasBody && declared.length === 0) fail('body', 'a body was sent but the operation declares none');
        if (hasBody && declared.length > 0 && !declared.some((d) => mediaMatches(d, contentType)))
          fail('content-type', `content type "${contentType}" is not one of ${declared.join(', ')}`);
        let decoded: unknown;
        try {
          if (hasBody) decoded = await decodeBody(contentType, req.headers['content-type'] ?? '', bytes);
        } catch (err) {
          fail(
            'body',
            `the body cannot be decoded as ${contentType}: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
        const textual = contentType === 'application/x-www-form-urlencoded' || contentType === 'multipart/form-data';
        const validator = hasBody && textual ? await formBackend() : api;
        let result: ReturnType<typeof api.validateRequest>;
        try {
          result = validator.validateRequest(
            {
              method,
              path,
              query: queryOf(operation, routed.query) as Record<string, string | string[]>,
              // without a body, a content-type header would make openapi-backend validate `undefined` as the body
              headers: headersOf(
                operation,
                hasBody ? req.headers : { ...req.headers, 'content-type': undefined },
              ) as Record<string, string | string[]>,
              body: decoded,
            },
            validator.router.getOperation(operation.operationId!) ?? operation,
          );
        } catch (err) {
          result = { valid: false, errors: [] };
          fail('validator', `the validator could not check it: ${err instanceof Error ? err.message : String(err)}`);
        }
        for (const e of result.errors ?? []) {
          const where = e.instancePath === '' ? '' : `${e.instancePath.slice(1)}: `;
          const extra = (e.params as { additionalProperty?: string } | undefined)?.additionalProperty;
          const named = extra === undefined ? '' : ` (${extra})`;
          fail(categoryOf(e.instancePath, e.keyword), `${where}${e.message ?? e.keyword}${named}`);
        }
      }
      received.push(record);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: `wire_${received.length}`, object: 'wire' }));
    });
  });
  // idle pooled connections outlive a slow operation (the default 5 s would reset the next request)
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
