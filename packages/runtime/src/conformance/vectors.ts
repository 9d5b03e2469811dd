/**
 * The bundled vectors: JSON files next to this module (copied into both builds by
 * packages/runtime/build.mjs). Read through `require`, which works the same from ESM and CommonJS.
 */
import { createRequire } from 'node:module';
import type { VectorFile } from './schema.js';

/** In the order they run: the contract first, then the target semantics other work delivers. */
export const VECTOR_FILES = [
  'claim',
  'conflict',
  'in-flight',
  'lease',
  'failure',
  'ttl',
  'reconcile',
  'results',
  'keys',
  'target-window',
  'target-storefail',
] as const;

let cached: VectorFile[] | undefined;

/** Every bundled vector file, parsed (a fresh copy each call: callers may filter or edit). */
export function conformanceVectors(): VectorFile[] {
  cached ??= VECTOR_FILES.map((f) => createRequire(import.meta.url)(`./vectors/${f}.json`) as VectorFile);
  return structuredClone(cached);
}
