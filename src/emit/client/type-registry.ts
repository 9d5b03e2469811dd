/**
 * Named types for `$ref` targets. `components/schemas/X` (3.x) and `definitions/X` (Swagger 2) become
 * `export type X = …`; any other internal ref target gets a name the first time it is met. Because every ref
 * prints as a name, recursive schemas (Stripe has cycles) need no special handling.
 */
import type { JsonSchema } from '../../ir/types.js';
import { escapeSegment } from '../../json-pointer/pointer.js';
import { localRefSegments, resolveSegments } from '../../json-pointer/refs.js';
import { type NameTable, pascalCase, typeIdentifier, unshadowed } from './names.js';

export interface NamedType {
  name: string;
  ref: string;
  schema: JsonSchema;
}

/** Path segments that say nothing about what a schema is; skipped when naming an anonymous ref target. */
const NOISE = new Set([
  'paths',
  'components',
  'content',
  'schema',
  'schemas',
  'properties',
  'items',
  'definitions',
  'responses',
  'parameters',
  'requestBodies',
  'application/json',
]);

/** The target of a local `#…` ref; external refs and refs to nothing are `undefined` (printed as `unknown`). */
function resolveLocal(root: unknown, ref: string): unknown {
  const segments = localRefSegments(ref);
  return segments === undefined ? undefined : resolveSegments(root, segments);
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'boolean' || (value !== null && typeof value === 'object' && !Array.isArray(value));
}

export class TypeRegistry {
  /** In declaration order: component schemas sorted by name, then other ref targets in discovery order. */
  readonly named: NamedType[] = [];
  private readonly byRef = new Map<string, string | null>();
  private readonly visited = new Set<object>();

  constructor(
    readonly root: unknown,
    private readonly names: NameTable,
  ) {}

  /** Component schemas first, sorted, so their names never depend on which operation mentions them first. */
  registerComponents(): void {
    const r = this.root as Record<string, unknown> | null;
    const groups: [string, unknown][] = [
      ['#/definitions/', r?.definitions],
      ['#/components/schemas/', (r?.components as Record<string, unknown> | undefined)?.schemas],
    ];
    for (const [prefix, group] of groups) {
      if (group === null || typeof group !== 'object') continue;
      for (const key of Object.keys(group).sort()) {
        this.add(prefix + escapeSegment(key), typeIdentifier(key), (group as Record<string, unknown>)[key]);
      }
    }
  }

  /** The type name a `$ref` prints as, or `undefined` when the target is external or missing. */
  nameFor(ref: string): string | undefined {
    const known = this.byRef.get(ref);
    if (known !== undefined) return known ?? undefined;
    const target = resolveLocal(this.root, ref);
    if (!isSchema(target)) {
      this.byRef.set(ref, null);
      return undefined;
    }
    const segments = (localRefSegments(ref) ?? []).filter((s) => !NOISE.has(s) && !/^[0-9]+$/.test(s));
    return this.add(ref, pascalCase(segments.slice(-2).join(' ') || 'Schema'), target);
  }

  private add(ref: string, wanted: string, schema: unknown): string | undefined {
    if (!isSchema(schema)) {
      this.byRef.set(ref, null);
      return undefined;
    }
    const name = this.names.claim(unshadowed(wanted));
    this.byRef.set(ref, name);
    this.named.push({ name, ref, schema });
    return name;
  }

  /**
   * Register every internal ref reachable from `schema` (and from the targets, transitively) before printing,
   * so all named types are known up front and can be emitted as plain structures in a fixed order.
   */
  collect(schema: unknown): void {
    const stack: unknown[] = [schema];
    while (stack.length > 0) {
      const node = stack.pop();
      if (node === null || typeof node !== 'object' || this.visited.has(node)) continue;
      this.visited.add(node);
      if (Array.isArray(node)) {
        for (let i = node.length - 1; i >= 0; i--) stack.push(node[i]);
        continue;
      }
      const ref = (node as Record<string, unknown>).$ref;
      if (typeof ref === 'string' && !this.byRef.has(ref)) {
        if (this.nameFor(ref) !== undefined) stack.push(this.named[this.named.length - 1]!.schema);
      }
      // Keys by `for…in`: no array of keys (nor of [key, value] pairs) per schema node (Graph has millions).
      for (const k in node) {
        // `example(s)`/`default` hold instance data, where a `$ref` key is just data (GitHub's SCIM examples).
        if (k !== 'example' && k !== 'examples' && k !== 'default' && k !== 'enum' && k !== 'const')
          stack.push((node as Record<string, unknown>)[k]);
      }
    }
  }

  /** Walk the component schemas registered so far (they may pull in further targets). */
  collectNamed(): void {
    for (let i = 0; i < this.named.length; i++) this.collect(this.named[i]!.schema);
  }

  /**
   * A named type that is only a `$ref` chain leading back to itself (`A = B`, `B = A`) would be a TS
   * "circularly references itself" error; such aliases print as `unknown`.
   */
  isAliasCycle(start: NamedType): boolean {
    const seen = new Set<string>([start.ref]);
    let schema: unknown = start.schema;
    while (
      schema !== null &&
      typeof schema === 'object' &&
      typeof (schema as Record<string, unknown>).$ref === 'string'
    ) {
      const ref = (schema as Record<string, string>).$ref!;
      if (seen.has(ref)) return true;
      seen.add(ref);
      schema = resolveLocal(this.root, ref);
    }
    return false;
  }
}
