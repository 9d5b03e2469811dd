/** `api.id`: from the input's file name, safe as a file name, unique across inputs. */
import { fileNameSegment } from '../escape/index.js';

// Suffixes that name the kind of file rather than the API (`payments.openapi.yaml` → `payments`).
const KIND_SUFFIX = /\.(openapi|swagger|oas|oas2|oas3|spec|tools|mcp|api)$/i;
// Names that say nothing about the API: prefer the folder (`petstore/openapi.yaml` → `petstore`).
const GENERIC = new Set([
  'openapi',
  'swagger',
  'oas',
  'api',
  'apis',
  'spec',
  'specs',
  'index',
  'tools',
  'schema',
  'definition',
  'main',
  'root',
  'src',
]);

function stripName(name: string): string {
  let out = name.replace(/\.(json|ya?ml)$/i, '');
  while (KIND_SUFFIX.test(out)) out = out.replace(KIND_SUFFIX, '');
  return out;
}

export function apiIdFromFile(file: string): string {
  const segments = file.split('/').filter((s) => s !== '' && s !== '.' && s !== '..');
  const base = segments.pop() ?? '';
  let id = stripName(base);
  // Walk up at most two folders while the name is generic (`spec/swagger.json` → the folder above).
  for (let up = 0; up < 3 && GENERIC.has(id.toLowerCase()) && segments.length > 0; up++) {
    const folder = stripName(segments.pop()!);
    if (!GENERIC.has(folder.toLowerCase()) || segments.length === 0) id = folder;
  }
  // Output files are named after the id (`client/<id>.gen.ts`): no traversal, no device names, lower case.
  return fileNameSegment(id, 'api');
}

/** Unique ids in file order: later duplicates get `-2`, `-3`, … (ids are lower-case, so this holds on case-insensitive file systems too). */
export function uniqueApiIds(items: readonly { file: string; id: string }[]): string[] {
  const order = items
    .map((item, index) => ({ ...item, index }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.index - b.index));
  const taken = new Set<string>();
  const claimed = new Set(items.map((i) => i.id));
  const out: string[] = new Array(items.length);
  for (const { id, index } of order) {
    let unique = id;
    // A suffix never takes an id another input has on its own (`x` + `x` + `x-2` → `x`, `x-3`, `x-2`).
    for (let n = 2; taken.has(unique) || (unique !== id && claimed.has(unique)); n++) unique = `${id}-${n}`;
    taken.add(unique);
    out[index] = unique;
  }
  return out;
}
