/**
 * A minimal OpenAPI → ApiModel reader used by the client tests ONLY while src/ir (owned by another engineer)
 * does not exist yet; `plan.ts` prefers the real `buildApiModel` when it is present.
 */
import type { ApiModel, HttpMethod, HttpOperation, MediaContent, Parameter, ResponseSpec } from '../../../src/ir/types.js';
import { HTTP_METHODS } from '../../../src/ir/types.js';

type Obj = Record<string, any>;

function deref(root: Obj, node: any): any {
  for (let i = 0; i < 10 && node && typeof node.$ref === 'string' && node.$ref.startsWith('#/'); i++) {
    let cur: any = root;
    for (const s of node.$ref.slice(2).split('/')) cur = cur?.[decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~')];
    node = cur;
  }
  return node;
}

function camel(method: string, path: string): string {
  const words = `${method} ${path}`.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const s = words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1))).join('');
  return /^[0-9]/.test(s) ? `_${s}` : s;
}

function contentOf(root: Obj, content: Obj | undefined, pointer: string): MediaContent[] {
  return Object.entries(content ?? {}).map(([mediaType, m]) => ({ mediaType, schema: (m as Obj)?.schema, pointer }));
}

function param(root: Obj, p: Obj, pointer: string): Parameter | undefined {
  const d = deref(root, p);
  if (!d || typeof d.name !== 'string') return undefined;
  const { name, in: where, required, description, schema, ...rest } = d;
  const sch = schema ?? (d.content ? Object.values(d.content as Obj)[0]?.schema : undefined) ?? (rest.type ? rest : undefined);
  return { name, in: where, required: required === true || where === 'path', schema: sch, description, pointer };
}

function operation(root: Obj, path: string, method: HttpMethod, item: Obj, names: Set<string>): HttpOperation {
  const op = item[method] as Obj;
  const pointer = `/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}`;
  const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Obj) => param(root, p, pointer)).filter((p): p is Parameter => !!p);
  let name = typeof op.operationId === 'string' ? camel('', op.operationId) || camel(method, path) : camel(method, path);
  if (/^[0-9]/.test(name) || name === '') name = `_${name}`;
  while (names.has(name)) name += '_';
  names.add(name);
  const rb = deref(root, op.requestBody);
  const produces: string[] = op.produces ?? root.produces ?? ['application/json'];
  const responses: ResponseSpec[] = Object.entries((op.responses ?? {}) as Obj).map(([status, r]) => {
    const d = deref(root, r) ?? {};
    const content = d.content ? contentOf(root, d.content, pointer) : d.schema ? [{ mediaType: produces[0]!, schema: d.schema, pointer }] : [];
    return { status, description: d.description, content, headers: Object.keys(d.headers ?? {}), pointer };
  });
  return {
    kind: 'http', key: `${method.toUpperCase()} ${path}`, name, summary: op.summary, description: op.description, deprecated: op.deprecated === true,
    extensions: {}, source: { file: 'x', pointer }, method, path, operationId: op.operationId, tags: op.tags ?? [], parameters: params,
    requestBody: rb ? { required: rb.required === true, content: contentOf(root, rb.content, pointer), pointer } : undefined,
    responses, servers: [], pathExtensions: {},
  };
}

export function miniApiModel(id: string, root: Obj): ApiModel {
  const operations: HttpOperation[] = [];
  const names = new Set<string>();
  for (const path of Object.keys(root.paths ?? {}).sort()) {
    const item = deref(root, root.paths[path]) ?? {};
    for (const method of HTTP_METHODS) if (item[method]) operations.push(operation(root, path, method, item, names));
  }
  operations.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { id, file: `${id}.json`, format: root.swagger ? 'openapi2' : 'openapi3.0', title: root.info?.title, version: root.info?.version, servers: [], operations, events: [], root };
}
