/**
 * Ajv errors of swagger-parser's schema check → our diagnostics. Ajv with `allErrors` reports one mistake
 * many times: once per `oneOf` branch it tried (a Parameter Object is tried as each `in`, then as a
 * Reference Object), and once more per place a `$ref` was dereferenced into. A reader wants the mistake
 * once, at the line where it is written, so branch noise is dropped and paths are mapped back to the source.
 */
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { appendPointer, parsePointer } from '../json-pointer/pointer.js';
import { isObject, isRef, resolvePointer, resolveRefTarget } from '../json-pointer/refs.js';

/** The fields of an Ajv `ErrorObject` used here. */
export interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Where a pointer of the dereferenced document was written: `$ref`s on the way are followed in `root`. */
function sourcePointer(root: unknown, pointer: string): string {
  let node = root;
  let at = '';
  for (const seg of parsePointer(pointer) ?? []) {
    for (let hops = 0; isRef(node) && !Object.hasOwn(node, seg) && hops < 32; hops++) {
      const target = resolveRefTarget(root, node.$ref);
      if (!target) break;
      node = target.value;
      at = target.pointer;
    }
    node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[seg] : undefined;
    at = appendPointer(at, seg);
  }
  return at;
}

const inBranch = (e: SchemaError): boolean => /\/(oneOf|anyOf)\/\d+\//.test(e.schemaPath);
const under = (child: string, parent: string): boolean => child.startsWith(`${parent}/`);

/** Drops the errors that only say "none of the alternatives matched" when a more precise one exists. */
function reduce(errors: readonly SchemaError[]): SchemaError[] {
  // "missing $ref" is the Reference Object alternative failing, for every object that is not a reference.
  let kept = errors.filter((e) => !(e.keyword === 'required' && e.params.missingProperty === '$ref'));
  kept = kept.filter((e) => {
    if (e.keyword !== 'oneOf' && e.keyword !== 'anyOf') return true;
    return !kept.some(
      (o) =>
        o !== e &&
        o.keyword !== 'oneOf' &&
        o.keyword !== 'anyOf' &&
        (o.instancePath === e.instancePath || under(o.instancePath, e.instancePath)),
    );
  });
  // Within alternatives, the deepest complaint is the precise one (`in` must be …, not "in:path needs required").
  return kept.filter(
    (e) => !inBranch(e) || !kept.some((o) => o !== e && inBranch(o) && under(o.instancePath, e.instancePath)),
  );
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** One message per (place, keyword); the `enum` complaints of several branches become one list. */
function describe(group: SchemaError[], actual: unknown): string {
  const e = group[0];
  switch (e.keyword) {
    case 'required':
      return `missing required property ${shown(e.params.missingProperty)}`;
    case 'additionalProperties':
      return `property ${shown(e.params.additionalProperty)} is not allowed here`;
    case 'enum': {
      const allowed = [
        ...new Set(group.flatMap((g) => (Array.isArray(g.params.allowedValues) ? g.params.allowedValues : []))),
      ];
      return `${shown(actual)} is not one of ${allowed.map(shown).join(', ')}`;
    }
    case 'oneOf':
    case 'anyOf':
      return 'matches none of the forms the OpenAPI schema allows here';
    default:
      return `${e.message ?? e.keyword}${actual === undefined ? '' : ` (got ${shown(actual)})`}`;
  }
}

/** Diagnostics for the Ajv errors of one document, located in `root` (the bundled, not dereferenced, document). */
export function schemaDiagnostics(
  errors: readonly SchemaError[],
  root: unknown,
  where: { file: string; locate(pointer: string): { line: number; col: number } | undefined },
): Diagnostic[] {
  const groups = new Map<string, { pointer: string; errors: SchemaError[] }>();
  for (const e of reduce(errors)) {
    let pointer = sourcePointer(root, e.instancePath);
    // An unknown property is reported at its own key, so the line points at what to delete or rename.
    if (e.keyword === 'additionalProperties' && typeof e.params.additionalProperty === 'string')
      pointer = appendPointer(pointer, e.params.additionalProperty);
    const keyword = e.keyword === 'required' ? `required:${String(e.params.missingProperty)}` : e.keyword;
    const key = `${pointer}\0${keyword}`;
    const group = groups.get(key) ?? { pointer, errors: [] };
    group.errors.push(e);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ pointer, errors: group }) => {
    const actual = group[0].keyword === 'additionalProperties' ? undefined : resolvePointer(root, pointer);
    const message = describe(group, group[0].keyword === 'required' ? undefined : actual);
    return diagnostic('spec_schema_violation', 'error', message, {
      file: where.file,
      pointer,
      ...where.locate(pointer),
    });
  });
}
