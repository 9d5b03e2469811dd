import type { LoadedDoc } from '../../src/load/types.js';
import { detectDocument } from '../../src/load/detect.js';

/** An in-memory LoadedDoc (IR is pure: no files needed). */
export function docOf(root: unknown, file = 'api.json'): LoadedDoc {
  const d = detectDocument(root);
  if (d.kind !== 'openapi' && d.kind !== 'tools') throw new Error(`test fixture is not a spec: ${d.kind}`);
  const base = { file, syntax: 'json' as const, root, locate: () => undefined, parts: [] };
  return d.kind === 'openapi'
    ? { ...base, kind: d.kind, format: d.format }
    : { ...base, kind: d.kind, format: d.format, tools: { pointer: d.pointer, items: d.items } };
}

export const ok = { responses: { '200': { description: 'ok' } } };
