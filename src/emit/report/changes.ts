/**
 * What a spec change does to retry safety: two audit models compared operation by operation (matched by
 * key, so a renamed spec file still lines up), each difference tagged with the kinds a reviewer asks about.
 * An operation can carry several kinds (a native-key write that now fails closed has lost its key too).
 */
import type { Carrier, Mechanism, OperationClass } from '../../classify/types.js';
import type { AuditModel, AuditOperation } from './model.js';

/** The change kinds, in the order reports list them (also the words `--fail-on-change` accepts). */
export const CHANGE_KINDS = [
  'fail-closed',
  'lost-key',
  'lost-inverse',
  'new-write',
  'mechanism',
  'gained-key',
  'removed',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** What each kind means, for the reports' headings and the help text. */
export const CHANGE_TITLES: Readonly<Record<ChangeKind, string>> = {
  'fail-closed': 'writes that now fail closed (new, or had a mechanism before)',
  'lost-key': 'writes that lost their native key',
  'lost-inverse': 'compensatable writes that lost their inverse',
  'new-write': 'new writes, by mechanism',
  mechanism: 'other mechanism changes',
  'gained-key': 'writes that gained a native key',
  removed: 'removed operations',
};

/** The part of an operation a change is about. */
export interface OperationState {
  effect: 'read' | 'write';
  class: OperationClass;
  mechanism: Mechanism;
  carrier: string | null;
  compensation: string | null;
}

export interface OperationChange {
  key: string;
  name: string;
  kinds: ChangeKind[];
  before: OperationState | null;
  after: OperationState | null;
}

export interface AuditChanges {
  /** The baseline as the user named it. */
  baseline: string;
  operations: { before: number; after: number; addedReads: number };
  counts: Record<ChangeKind, number>;
  changes: OperationChange[];
}

function carrierId(c: Carrier | null): string | null {
  return c === null ? null : `${c.in} ${c.name}`;
}

function state(o: AuditOperation): OperationState {
  return {
    effect: o.effect,
    class: o.class,
    mechanism: o.mechanism,
    carrier: carrierId(o.carrier),
    compensation: o.compensation ?? null,
  };
}

/** Operations by key; a key that occurs twice (two files) gets `#2`, `#3`… in file order. */
function byKey(ops: readonly AuditOperation[]): Map<string, AuditOperation> {
  const out = new Map<string, AuditOperation>();
  for (const o of ops) {
    let id = o.key;
    for (let n = 2; out.has(id); n++) id = `${o.key} #${n}`;
    out.set(id, o);
  }
  return out;
}

const isKeyed = (s: OperationState | null): boolean => s !== null && s.mechanism === 'native-key';
const hasInverse = (s: OperationState | null): boolean =>
  s !== null && s.mechanism === 'saga' && s.compensation !== null;

/** The kinds one operation's before/after pair falls under; empty when nothing retry-relevant changed. */
export function changeKinds(before: OperationState | null, after: OperationState | null): ChangeKind[] {
  const kinds: ChangeKind[] = [];
  if (after === null) return before === null ? [] : ['removed'];
  if (after.effect === 'write' && after.mechanism === 'fail-closed' && before?.mechanism !== 'fail-closed')
    kinds.push('fail-closed');
  if (before !== null && isKeyed(before) && !isKeyed(after)) kinds.push('lost-key');
  if (before !== null && hasInverse(before) && !hasInverse(after)) kinds.push('lost-inverse');
  if (before === null && after.effect === 'write') kinds.push('new-write');
  if (before !== null && isKeyed(after) && !isKeyed(before)) kinds.push('gained-key');
  if (before !== null && kinds.length === 0 && before.mechanism !== after.mechanism) kinds.push('mechanism');
  return kinds;
}

export function diffAudits(before: AuditModel, after: AuditModel, baseline: string): AuditChanges {
  const old = byKey(before.operations);
  const now = byKey(after.operations);
  const changes: OperationChange[] = [];
  let addedReads = 0;
  for (const [id, o] of now) {
    const prev = old.get(id);
    const b = prev ? state(prev) : null;
    const a = state(o);
    if (!prev && o.effect === 'read') addedReads++;
    const kinds = changeKinds(b, a);
    if (kinds.length > 0) changes.push({ key: id, name: o.name, kinds, before: b, after: a });
  }
  for (const [id, o] of old) {
    if (!now.has(id)) changes.push({ key: id, name: o.name, kinds: ['removed'], before: state(o), after: null });
  }
  changes.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  const counts = Object.fromEntries(CHANGE_KINDS.map((k) => [k, 0])) as Record<ChangeKind, number>;
  for (const c of changes) for (const k of c.kinds) counts[k]++;
  return {
    baseline,
    operations: { before: before.operations.length, after: after.operations.length, addedReads },
    counts,
    changes,
  };
}

/** `fail-closed,lost-key` → the kinds; `any` is every kind, `none` none. Unknown words are returned apart. */
export function parseChangeRules(text: string): { kinds: ChangeKind[]; unknown: string[] } {
  const kinds = new Set<ChangeKind>();
  const unknown: string[] = [];
  for (const word of text
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w !== '')) {
    if (word === 'any') for (const k of CHANGE_KINDS) kinds.add(k);
    else if (word === 'none') continue;
    else if ((CHANGE_KINDS as readonly string[]).includes(word)) kinds.add(word as ChangeKind);
    else unknown.push(word);
  }
  return { kinds: CHANGE_KINDS.filter((k) => kinds.has(k)), unknown };
}

/** The kinds among `rules` that occurred, with their counts (empty: the change check passes). */
export function trippedChanges(changes: AuditChanges, rules: readonly ChangeKind[]): [ChangeKind, number][] {
  return rules.filter((k) => changes.counts[k] > 0).map((k) => [k, changes.counts[k]]);
}

/** `native-key → fail-closed`, `new (fail-closed)`, `removed (was native-key)`. */
export function transitionText(c: OperationChange): string {
  const label = (s: OperationState): string => (s.effect === 'read' ? 'read' : s.mechanism);
  if (c.before === null) return `new: ${label(c.after!)}`;
  if (c.after === null) return `removed (was ${label(c.before)})`;
  const from = label(c.before);
  const to = label(c.after);
  const carrier =
    c.before.carrier !== c.after.carrier ? `; key ${c.before.carrier ?? 'none'} → ${c.after.carrier ?? 'none'}` : '';
  const undo =
    c.before.compensation !== c.after.compensation
      ? `; undo ${c.before.compensation ?? 'none'} → ${c.after.compensation ?? 'none'}`
      : '';
  return `${from === to ? from : `${from} → ${to}`}${carrier}${undo}`;
}

/** The changes of one kind; new writes sorted by mechanism (the group's sub-heading), the rest by key. */
export function changesOf(changes: AuditChanges, kind: ChangeKind): OperationChange[] {
  const list = changes.changes.filter((c) => c.kinds.includes(kind));
  if (kind !== 'new-write') return list;
  const mech = (c: OperationChange): string => c.after?.mechanism ?? '';
  return [...list].sort((a, b) => (mech(a) < mech(b) ? -1 : mech(a) > mech(b) ? 1 : 0));
}
