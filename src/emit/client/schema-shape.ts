/**
 * What a schema is written as, decided without writing it: its literals, its declared types, and the
 * precedence of the written type (`A | B` binds looser than `A & B`), so the printer parenthesizes only
 * where TypeScript needs it.
 */
import type { JsonSchema } from '../../ir/types.js';
import { tsNumber, tsString } from '../../escape/index.js';

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** How a written type binds: parentheses depend on it (array element, intersection member). */
export type Precedence = 'atom' | 'intersection' | 'union';

/** The precedence `writeSchemaType` output has, without writing it (same decisions as `writeNonTrivial`). */
export function precedenceOf(schema: JsonSchema | undefined): Precedence {
  if (!isObj(schema)) return 'atom';
  if (typeof schema.$ref === 'string') return 'atom';
  const precs: Precedence[] = [];
  const lits = Array.isArray(schema.enum) ? enumArity(schema.enum) : 0;
  if ('const' in schema && literal(schema.const) !== undefined) precs.push('atom');
  else if (lits > 0) precs.push(lits > 1 ? 'union' : 'atom');
  else {
    const n = declaredTypes(schema).length;
    if (n > 0) precs.push(n > 1 ? 'union' : 'atom');
  }
  for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list) && list.length > 0)
      precs.push(list.length === 1 ? 'atom' : key === 'allOf' ? 'intersection' : 'union');
  }
  if (precs.length > 1) return 'intersection';
  return precs[0] ?? 'atom';
}

export function literal(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'string') return tsString(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isFinite(value)) return tsNumber(value);
  return undefined;
}

export const enumLiterals = (values: unknown[]): string[] => [
  ...new Set(values.map(literal).filter((l): l is string => l !== undefined)),
];

/**
 * How many distinct literals `enumLiterals` would give, capped at 2, without writing them: two values give
 * the same literal exactly when they are `===` (0 and -0 both print `0`).
 */
function enumArity(values: unknown[]): 0 | 1 | 2 {
  let first: unknown;
  let found = false;
  for (const v of values) {
    if (
      !(v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)))
    )
      continue;
    if (!found) {
      first = v;
      found = true;
    } else if (v !== first) return 2;
  }
  return found ? 1 : 0;
}

export function declaredTypes(s: Obj): string[] {
  const t = s.type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return [...new Set(t.filter((x): x is string => typeof x === 'string'))];
  const composed = s.allOf !== undefined || s.oneOf !== undefined || s.anyOf !== undefined;
  if (isObj(s.properties) || (s.additionalProperties !== undefined && !composed)) return ['object'];
  if (s.items !== undefined || Array.isArray(s.prefixItems)) return ['array'];
  return [];
}
