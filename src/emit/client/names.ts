/**
 * Identifier helpers for the client emitter: every name the generated file declares goes through
 * one `NameTable`, so schema types, operation types and runtime imports can never collide.
 */

import { RESERVED_IDENTIFIERS, tsPropertyKey } from '../../escape/index.js';

/** ECMAScript reserved words, TypeScript's predefined type names and `constructor`-like member names. */
const RESERVED = RESERVED_IDENTIFIERS;

/**
 * Globals the generated code refers to in type positions; a schema named `Blob` or `Promise` would shadow them
 * inside the module and silently change the meaning of other declarations.
 */
export const GLOBAL_NAMES: readonly string[] = [
  'Blob',
  'Promise',
  'FormData',
  'ArrayBuffer',
  'Uint8Array',
  'Record',
  'Omit',
  'Array',
  'Date',
];

/**
 * Built-in globals a schema name would shadow for every reader of the module (`export type Error = …` hides the
 * global `Error` type): such a schema's type is named `Api<Name>` (`ApiError`), still unique through the table.
 */
const SHADOWED_GLOBALS: ReadonlySet<string> = new Set([
  'Error',
  'Object',
  'Function',
  'String',
  'Number',
  'Boolean',
  'Symbol',
  'BigInt',
  'Map',
  'Set',
  'Response',
  'Request',
  'Headers',
  'URL',
  'JSON',
  'Math',
  'Event',
  'AbortSignal',
]);

/** `Error` → `ApiError`; every other name as it is. */
export function unshadowed(name: string): string {
  return SHADOWED_GLOBALS.has(name) ? `Api${name}` : name;
}

/** A property key as written in an object type (reserved words are legal property names there). */
export const propertyKey = tsPropertyKey;

/** `payments-api.v2` → `PaymentsApiV2`; always a valid identifier (leading digit gets a `_` prefix). */
export function pascalCase(raw: string): string {
  const words = raw.split(/[^A-Za-z0-9]+/).filter((w) => w.length > 0);
  const joined = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  if (joined.length === 0) return '_';
  return /^[0-9]/.test(joined) ? `_${joined}` : joined;
}

/**
 * Sanitize a schema name into a type identifier while keeping it recognisable:
 * `Pet` stays `Pet`, `pet.Owner-v2` → `pet_Owner_v2`, `2fa` → `_2fa`.
 */
export function typeIdentifier(raw: string): string {
  let name = raw.replace(/[^A-Za-z0-9_$]+/g, '_').replace(/^_+(?=[A-Za-z])/, '');
  if (name.length === 0) name = '_';
  if (/^[0-9]/.test(name)) name = `_${name}`;
  return RESERVED.has(name) ? `${name}_` : name;
}

/** Hands out unique identifiers in call order (deterministic as long as the callers are). */
export class NameTable {
  private readonly used = new Set<string>();
  /**
   * Per wanted name, the suffix to try next: names are never released, so every suffix below it is still
   * taken, and a name wanted by hundreds of operations (Graph) is not probed from `2` each time.
   */
  private readonly nextSuffix = new Map<string, number>();

  constructor(reserved: readonly string[] = []) {
    for (const r of reserved) this.used.add(r);
  }

  /** `wanted` if free, else `wanted2`, `wanted3`, … (the first one free) */
  claim(wanted: string): string {
    if (!this.used.has(wanted)) {
      this.used.add(wanted);
      return wanted;
    }
    let i = this.nextSuffix.get(wanted) ?? 2;
    while (this.used.has(`${wanted}${i}`)) i++;
    const name = `${wanted}${i}`;
    this.used.add(name);
    this.nextSuffix.set(wanted, i + 1);
    return name;
  }
}
