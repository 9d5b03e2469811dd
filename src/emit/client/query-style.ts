/**
 * The runtime's `QueryStyle` for each query parameter of an operation whose array or object value is not
 * written in the runtime's default bracket style (`id[0]=a`). OpenAPI 3's default for a query parameter is
 * `style: form, explode: true` (`id=a&id=b`); Swagger 2.0's `collectionFormat` arrives here as style/explode
 * (ir/parameters.ts). A parameter whose schema is a plain scalar is written the same in every style and gets
 * no entry, nor does a `deepObject` one (the runtime's brackets): the output names only what differs.
 */
import { derefSchema, isObject } from '../../json-pointer/refs.js';
import type { HttpOperation, Parameter } from '../../ir/types.js';
import type { QueryStyle } from '@idemgen/runtime';

const SCALARS = new Set(['string', 'number', 'integer', 'boolean', 'null']);

/** The schema can only hold a scalar: a scalar `type` (or list of them) and no composition. */
function scalarOnly(root: unknown, schema: unknown): boolean {
  const s = derefSchema(root, schema);
  if (!isObject(s) || s.oneOf !== undefined || s.anyOf !== undefined || s.allOf !== undefined) return false;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  return types.length > 0 && types.every((t) => typeof t === 'string' && SCALARS.has(t));
}

function queryStyleOf(p: Parameter, root: unknown): QueryStyle | undefined {
  if (p.in !== 'query' || scalarOnly(root, p.schema)) return undefined;
  const style = p.style ?? 'form';
  const explode = p.explode ?? style === 'form';
  if (explode && (style === 'form' || style === 'spaceDelimited' || style === 'pipeDelimited')) return 'multi';
  if (style === 'form') return 'csv';
  if (style === 'spaceDelimited') return 'ssv';
  if (style === 'pipeDelimited') return 'pipes';
  if (style === 'tabDelimited') return 'tsv';
  return undefined; // deepObject, or a style query has not: the runtime's brackets
}

/** Parameter name → style, for the operation's query parameters that have one; undefined when none does. */
export function queryStyles(op: HttpOperation, root: unknown): Record<string, QueryStyle> | undefined {
  const out: Record<string, QueryStyle> = {};
  for (const p of op.parameters) {
    const style = queryStyleOf(p, root);
    if (style !== undefined) out[p.name] = style;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
