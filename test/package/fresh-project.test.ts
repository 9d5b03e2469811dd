/**
 * A new user's first run, end to end (needs `npm run build`, which `npm test` runs first): a fresh project
 * with idemgen and @idemgen/runtime as dependencies (linked into its node_modules the way npm installs
 * them, so no registry round trip), `idemgen init`, a spec in specs/, `npm run build` (init's prebuild runs
 * `idemgen generate`, then tsc --strict compiles everything generated). Every default artifact folder is
 * there, and the generated MCP module's stdio `main()`, started with nothing configured but the API's URL
 * (no store, no migration by hand), answers the real MCP SDK client's first tool call — a compensatable
 * OP-5 write, which needs the saga table too — with success.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Database from 'better-sqlite3';
import { afterAll, expect, test } from 'vitest';
import { WIDGETS_SPEC } from '../emit/mcp/widgets-spec.js';
import { ROOT } from '../helpers/cli.js';
import { jsonAnswer, startFaultServer, type FaultServer } from '../helpers/fault-server.js';

let api: FaultServer | undefined;
afterAll(async () => {
  await api?.close();
});

/** node_modules as an install would leave it: the two packages, what the generated code imports, tsc and tsx. */
function linkDependencies(app: string): void {
  const links: [string, string][] = [
    ['idemgen', ROOT],
    ['@idemgen/runtime', join(ROOT, 'packages/runtime')],
    ['@modelcontextprotocol/sdk', join(ROOT, 'node_modules/@modelcontextprotocol/sdk')],
    ['better-sqlite3', join(ROOT, 'node_modules/better-sqlite3')],
    ['typescript', join(ROOT, 'node_modules/typescript')],
    ['@types/node', join(ROOT, 'node_modules/@types/node')],
    ['tsx', join(ROOT, 'node_modules/tsx')],
  ];
  for (const [name, target] of links) {
    mkdirSync(dirname(join(app, 'node_modules', name)), { recursive: true });
    symlinkSync(target, join(app, 'node_modules', name), 'dir');
  }
  mkdirSync(join(app, 'node_modules/.bin'));
  symlinkSync(join(ROOT, 'bin/idemgen.js'), join(app, 'node_modules/.bin/idemgen'));
  symlinkSync(join(ROOT, 'node_modules/typescript/bin/tsc'), join(app, 'node_modules/.bin/tsc'));
}

const run = (cmd: string, args: string[], cwd: string): string =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, CI: 'true' }, stdio: 'pipe' });

test('init + npm run build: every default artifact, and the MCP module answers its first tool call', {
  timeout: 300_000,
}, async () => {
  const app = mkdtempSync(join(tmpdir(), 'idemgen-fresh-'));
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify(
      {
        name: 'fresh-app',
        private: true,
        type: 'module',
        scripts: { build: 'tsc -p tsconfig.json' },
        dependencies: { '@idemgen/runtime': '0.1.0', '@modelcontextprotocol/sdk': '*', 'better-sqlite3': '*' },
        devDependencies: { idemgen: '0.1.0', typescript: '*', '@types/node': '*', tsx: '*' },
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        outDir: 'dist',
        types: ['node'],
        skipLibCheck: true,
      },
      include: ['generated/**/*.ts'],
    }),
  );
  linkDependencies(app);

  const init = run(join(app, 'node_modules/.bin/idemgen'), ['init'], app);
  expect(init).toMatch(/added "prebuild": "idemgen generate"/);
  expect(JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')).scripts.prebuild).toBe('idemgen generate');
  writeFileSync(join(app, 'specs', 'widgets.json'), JSON.stringify(WIDGETS_SPEC, null, 2));

  run('npm', ['run', 'build'], app); // prebuild (idemgen generate), then tsc --strict over generated/
  expect(readdirSync(join(app, 'generated')).sort()).toEqual(['client', 'handlers', 'mcp', 'report', 'sql', 'tools']);
  for (const file of [
    'client/widgets.gen.ts',
    'handlers/widgets.tools.gen.ts',
    'handlers/widgets.bindings.gen.ts',
    'mcp/widgets.server.gen.ts',
    'mcp/store-tables.gen.ts',
    'report/audit.md',
    'sql/sqlite/0002_idemgen_saga.up.sql',
    'tools/mcp/widgets.tools.json',
  ])
    expect(existsSync(join(app, 'generated', file)), file).toBe(true);
  expect(existsSync(join(app, 'dist/mcp/widgets.server.gen.js'))).toBe(true);

  api = await startFaultServer({ respond: (_req, n) => jsonAnswer(201, { id: `wid_${n}` }) });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (typeof v === 'string' && !k.startsWith('IDEMGEN_')) env[k] = v;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'generated/mcp/widgets.server.gen.ts'],
    cwd: app,
    env: { ...env, IDEMGEN_BASE_URL: api.url },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'fresh-project', version: '1.0.0' });
  await client.connect(transport);
  try {
    const r = (await client.callTool({
      name: 'createWidget',
      arguments: { body: { name: 'first' }, idempotency_key: 'fresh-project-key-0001' },
    })) as { isError?: boolean; structuredContent?: unknown };
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ was_replay: false, result: { id: 'wid_1' } });
    expect(api.effects).toBe(1);
  } finally {
    await client.close();
  }
  // The default store, created in the working directory with both tables.
  const db = new Database(join(app, 'idemgen.sqlite'), { readonly: true });
  try {
    expect(db.prepare('SELECT status, external_id FROM idemgen_saga').all()).toEqual([
      { status: 'completed', external_id: 'wid_1' },
    ]);
  } finally {
    db.close();
  }
});
