/**
 * `report/audit.json`: the audit model (model.ts, which `idemgen audit --format json` prints whole) without
 * what repeats or follows from other fields, so a Graph-sized spec (11,422 operations) stays small.
 * docs/contracts.md describes each rule; `expandJsonDocument` (tests) restores the model from it.
 * - `files` lists the sources once; operations and diagnostics name theirs by index (`file`);
 * - `pointer` is left out where it is the HTTP operation's own (`/paths/<path>/<method>` of `key`), and a
 *   reason's `pointer` where it equals its operation's;
 * - a reason's `detail` or a diagnostic's `hint` whose text occurs more than once is the index of that text
 *   in `texts` (a number instead of a string);
 * - `effectReasons` are left out where the HTTP method alone decided (`http_safe_method`/`http_unsafe_method`);
 *   a read leaves out `class` (`read-only`), `mechanism` (`none`) and `reasons` when they are only `read_only`
 *   (in both cases a reason with anything more, such as `signals`, is written);
 * - `null` values are left out, except a reason's `pointer: null`: the reason has no pointer.
 */
import { methodEffectReason } from '../../classify/effect.js';
import { READ_ONLY_REASON } from '../../classify/entry.js';
import type { Reason } from '../../classify/types.js';
import type { AuditDiagnostic, AuditModel, AuditOperation, AuditTotals } from './model.js';

type Obj = Record<string, unknown>;

export interface AuditJson {
  files: string[];
  texts: string[];
  operations: Obj[];
  diagnostics: Obj[];
  totals: AuditTotals;
}

const HTTP_KEY = /^(GET|PUT|POST|DELETE|OPTIONS|HEAD|PATCH|TRACE) (\/.*)$/;

/** `/paths/~1charges/post` for `POST /charges` (RFC 6901 escaping); undefined for a tool. */
function httpPointer(key: string): string | undefined {
  const m = HTTP_KEY.exec(key);
  if (m === null) return undefined;
  return `/paths/${m[2]!.replace(/~/g, '~0').replace(/\//g, '~1')}/${m[1]!.toLowerCase()}`;
}

/** The effect reason classify gives an HTTP operation by its method alone (classify/effect.ts). */
function methodReason(key: string, effect: 'read' | 'write', pointer: string): Reason | undefined {
  const m = HTTP_KEY.exec(key)?.[1];
  return m === undefined ? undefined : methodEffectReason(m, effect, pointer);
}

/** Nothing but `rule`, `detail` and `pointer` (a reason with `signals` is written whole). */
const plain = (r: Reason): boolean => Object.keys(r).every((k) => k === 'rule' || k === 'detail' || k === 'pointer');

const sameReason = (a: Reason | undefined, b: Reason | undefined): boolean =>
  a !== undefined &&
  b !== undefined &&
  plain(a) &&
  a.rule === b.rule &&
  a.detail === b.detail &&
  a.pointer === b.pointer;

/** Per operation of a model: audit.md and audit.json both ask for every operation (the model is not edited). */
const METHOD_ONLY = new WeakMap<AuditOperation, boolean>();

/** The operation's effect was decided by its HTTP method alone, with classify's own words. */
export function onlyMethodReason(o: AuditOperation): boolean {
  let only = METHOD_ONLY.get(o);
  if (only === undefined) {
    only =
      o.effectReasons.length === 1 && sameReason(o.effectReasons[0], methodReason(o.key, o.effect, o.source.pointer));
    METHOD_ONLY.set(o, only);
  }
  return only;
}

/** classify's one reason for every read: its own constant, so the two cannot drift apart. */

function onlyReadOnly(o: AuditOperation): boolean {
  const r = o.reasons[0];
  return (
    o.effect === 'read' &&
    o.reasons.length === 1 &&
    plain(r!) &&
    r!.rule === READ_ONLY_REASON.rule &&
    r!.detail === READ_ONLY_REASON.detail &&
    r!.pointer === o.source.pointer
  );
}

/** Texts used more than once, by first use: the document's `texts`. */
class TextTable {
  readonly #count = new Map<string, number>();
  #index = new Map<string, number>();
  readonly texts: string[] = [];
  count(text: string | undefined): void {
    if (text !== undefined) this.#count.set(text, (this.#count.get(text) ?? 0) + 1);
  }
  seal(): void {
    for (const [t, n] of this.#count) if (n > 1) this.#index.set(t, this.texts.push(t) - 1);
  }
  ref(text: string): string | number {
    return this.#index.get(text) ?? text;
  }
}

export function toAuditJson(model: AuditModel): AuditJson {
  const diagnosticFiles = model.diagnostics.flatMap((d) => (d.file !== null ? [d.file] : []));
  const files = [...new Set([...model.operations.map((o) => o.source.file), ...diagnosticFiles])].sort();
  const index = new Map(files.map((f, i) => [f, i]));
  const table = new TextTable();
  for (const o of model.operations) {
    if (!onlyMethodReason(o)) for (const r of o.effectReasons) table.count(r.detail);
    if (!onlyReadOnly(o)) for (const r of o.reasons) table.count(r.detail);
  }
  for (const d of model.diagnostics) table.count(d.hint);
  table.seal();
  const reason = (o: AuditOperation, r: Reason): Obj => {
    const { rule, detail, pointer, ...rest } = r; // rest: `signals` and the like, kept as they are
    // `pointer: null`: the reason has none (left out, it would read as the operation's).
    const at = pointer === undefined ? { pointer: null } : pointer !== o.source.pointer ? { pointer } : {};
    return { rule, detail: table.ref(detail), ...at, ...rest };
  };
  const operations = model.operations.map((o): Obj => {
    const out: Obj = { key: o.key, name: o.name, file: index.get(o.source.file) };
    if (o.source.pointer !== httpPointer(o.key)) out.pointer = o.source.pointer;
    out.effect = o.effect;
    if (o.effect === 'write' || o.class !== 'read-only' || o.mechanism !== 'none') {
      out.class = o.class;
      out.mechanism = o.mechanism;
    }
    if (o.toolBoundary !== undefined) out.toolBoundary = o.toolBoundary;
    if (o.carrier !== null) out.carrier = o.carrier;
    if (o.keyStrategy !== null) out.keyStrategy = o.keyStrategy;
    if (o.ttlSeconds !== undefined) out.ttlSeconds = o.ttlSeconds;
    if (o.compensation !== undefined) out.compensation = o.compensation;
    if (o.verification !== undefined) out.verification = o.verification;
    if (o.methodIdempotent === true) out.methodIdempotent = true;
    if (!onlyMethodReason(o)) out.effectReasons = o.effectReasons.map((r) => reason(o, r));
    if (!onlyReadOnly(o)) out.reasons = o.reasons.map((r) => reason(o, r));
    return out;
  });
  const diagnostics = model.diagnostics.map((d: AuditDiagnostic): Obj => {
    const out: Obj = { code: d.code, severity: d.severity };
    if (d.file !== null) out.file = index.get(d.file);
    if (d.pointer !== null) out.pointer = d.pointer;
    if (d.line !== null) out.line = d.line;
    if (d.col !== null) out.col = d.col;
    out.message = d.message;
    if (d.hint !== undefined) out.hint = table.ref(d.hint);
    return out;
  });
  return { files, texts: table.texts, operations, diagnostics, totals: model.totals };
}

/** The model back from its JSON document: every rule above undone (what the round-trip test checks). */
export function expandAuditJson(doc: AuditJson): AuditModel {
  const file = (i: unknown): string => doc.files[i as number]!;
  const text = (t: unknown): string => (typeof t === 'number' ? doc.texts[t]! : (t as string));
  const operations = doc.operations.map((o): AuditOperation => {
    const key = o.key as string;
    const pointer = (o.pointer as string | undefined) ?? httpPointer(key)!;
    const reason = (r: Obj): Reason => {
      const { pointer: at, ...rest } = r;
      const out = { ...(rest as unknown as Reason), detail: text(r.detail) };
      if (at !== null) out.pointer = (at as string | undefined) ?? pointer;
      return out;
    };
    const effect = o.effect as 'read' | 'write';
    const out: AuditOperation = {
      key,
      name: o.name as string,
      source: { file: file(o.file), pointer },
      effect,
      effectReasons: o.effectReasons ? (o.effectReasons as Obj[]).map(reason) : [methodReason(key, effect, pointer)!],
      class: (o.class as AuditOperation['class'] | undefined) ?? 'read-only',
      mechanism: (o.mechanism as AuditOperation['mechanism'] | undefined) ?? 'none',
      carrier: (o.carrier as AuditOperation['carrier'] | undefined) ?? null,
      keyStrategy: (o.keyStrategy as AuditOperation['keyStrategy'] | undefined) ?? null,
      reasons: o.reasons ? (o.reasons as Obj[]).map(reason) : [{ ...READ_ONLY_REASON, pointer }],
    };
    if (o.toolBoundary !== undefined) out.toolBoundary = o.toolBoundary as 'tool-dedup';
    if (o.ttlSeconds !== undefined) out.ttlSeconds = o.ttlSeconds as number;
    if (o.compensation !== undefined) out.compensation = o.compensation as string;
    if (o.verification !== undefined) out.verification = o.verification as AuditOperation['verification'];
    if (o.methodIdempotent === true) out.methodIdempotent = true;
    return out;
  });
  const diagnostics = doc.diagnostics.map((d): AuditDiagnostic => {
    const hint = d.hint !== undefined ? text(d.hint) : undefined;
    return {
      code: d.code as string,
      severity: d.severity as AuditDiagnostic['severity'],
      file: d.file !== undefined ? file(d.file) : null,
      pointer: (d.pointer as string | undefined) ?? null,
      line: (d.line as number | undefined) ?? null,
      col: (d.col as number | undefined) ?? null,
      message: d.message as string,
      ...(hint !== undefined ? { hint } : {}),
    };
  });
  return { operations, diagnostics, totals: doc.totals };
}
