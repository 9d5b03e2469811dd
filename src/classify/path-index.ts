/**
 * Path lookups the inverse and collection rules ask once per operation, built once per API: a scan of
 * every operation per POST was quadratic (Microsoft Graph: 11k operations, seconds of classify time).
 * Entries keep the first match in operation order, as the scans they replace did.
 */
import type { HttpOperation, Operation } from '../ir/types.js';
import { type ClassifyMemo, memoSlot } from './memo.js';

export interface PathIndex {
  /** DELETE operations by their exact path. */
  deleteAt: ReadonlyMap<string, HttpOperation>;
  /** DELETE operations of `/base/{id}` (one template segment below) by `/base`. */
  deleteBelow: ReadonlyMap<string, HttpOperation>;
  /** `/base` for every HTTP operation of `/base/{id}` (any method). */
  hasItemBelow: ReadonlySet<string>;
}

const INDEXES = memoSlot('path indexes', () => new WeakMap<ReadonlyMap<string, Operation>, PathIndex>());

/** `/things` for `/things/{id}`; undefined when the last segment is not one whole template. */
export function parentOfItem(path: string): string | undefined {
  const at = path.lastIndexOf('/');
  return at >= 0 && /^\/\{[^}/]+\}$/.test(path.slice(at)) ? path.slice(0, at) : undefined;
}

/** The collection a POST addresses, as `parentOfItem` keys it: trailing slashes dropped. */
export function collectionBase(path: string): string {
  return path.replace(/\/+$/, '');
}

/** The API's index, built once per run (`byKey` is the API's operation map on the classify context). */
export function pathIndex(memo: ClassifyMemo, byKey: ReadonlyMap<string, Operation>): PathIndex {
  const cache = memo.get(INDEXES);
  const known = cache.get(byKey);
  if (known !== undefined) return known;
  const deleteAt = new Map<string, HttpOperation>();
  const deleteBelow = new Map<string, HttpOperation>();
  const hasItemBelow = new Set<string>();
  for (const op of byKey.values()) {
    if (op.kind !== 'http') continue;
    const parent = parentOfItem(op.path);
    if (parent !== undefined) hasItemBelow.add(parent);
    if (op.method !== 'delete') continue;
    if (!deleteAt.has(op.path)) deleteAt.set(op.path, op);
    if (parent !== undefined && !deleteBelow.has(parent)) deleteBelow.set(parent, op);
  }
  const index = { deleteAt, deleteBelow, hasItemBelow };
  cache.set(byKey, index);
  return index;
}
