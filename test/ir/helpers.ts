import type { LoadedDoc } from '../../src/load/types.js';
import { detectDocument } from '../../src/load/detect.js';

/** An in-memory LoadedDoc (IR is pure: no files needed). */
export function docOf(root: unknown, file = 'api.json'): LoadedDoc {
  const d = detectDocument(root);
  if (d.kind !== 'openapi' && d.kind !== 'tools') throw new Error(`test fixture is not a spec: ${d.kind}`);
  return { file, kind: d.kind, format: d.format, syntax: 'json', root, locate: () => undefined, parts: [] };
}

export const ok = { responses: { '200': { description: 'ok' } } };
