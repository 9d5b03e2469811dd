/**
 * The packages as users get them (needs `npm run build`, which `npm test` runs first): `npm pack` of idemgen
 * (generator + CLI) and of the @idemgen/runtime workspace, each installed from its tarball into fresh
 * projects (other dependencies from the registry):
 * - an ESM project runs `npx idemgen generate`, compiles the output with tsc --strict and uses the runtime;
 * - a CommonJS project (`npm init` style, no "type") require()s `@idemgen/runtime`, `idemgen/runtime` and
 *   the langgraph entry, and runs a deduplicated call;
 * - a production install of the runtime alone pulls in no generator dependency.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from '../helpers/cli.js';

interface Packed {
  filename: string;
  files: { path: string }[];
}

const npm = (args: string[], cwd: string): string =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
const node = (file: string, cwd: string): string => execFileSync(process.execPath, [file], { cwd, encoding: 'utf8' });

/**
 * What both apps run: one deduplicated call, the langgraph entry, and proof that the old `idemgen/runtime`
 * alias is gone (the idemgen package exports no runtime entry: `@idemgen/runtime` is the one name).
 */
const USE_RUNTIME = (load: string) => `${load}
const idem = rt.createIdempotency({ store: rt.createMemoryStore() });
const req = { operation: 'POST /x', key: 'k'.repeat(20), args: { a: 1 }, mechanism: 'fail-closed' };
let calls = 0;
const main = async () => {
  const first = await idem.run(req, async () => ++calls);
  const again = await idem.run(req, async () => ++calls);
  console.log(JSON.stringify({ calls, replay: again.wasReplay, legacy, inNode: typeof lg.idempotentInNode, first: first.result }));
};
main();
`;

let work: string;
let idemgen: Packed;
let runtime: Packed;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'idemgen-pack-'));
  // --ignore-scripts: `npm test` built dist/ and packages/runtime/dist already.
  idemgen = (JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT)) as Packed[])[0];
  runtime = (
    JSON.parse(
      npm(['pack', '-w', '@idemgen/runtime', '--ignore-scripts', '--json', '--pack-destination', work], ROOT),
    ) as Packed[]
  )[0];
}, 300_000);

describe('npm pack', () => {
  test('ships what users read and run, nothing from test/ and nothing of the runtime', () => {
    const files = idemgen.files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['bin/idemgen.js', 'dist/cli/main.js', 'dist/index.d.ts']));
    // The runtime is @idemgen/runtime's alone (a dependency of idemgen): no source, README or compiled copy here.
    expect(
      files.filter(
        (f) =>
          f.startsWith('test/') ||
          f.startsWith('compat/') ||
          f.includes('.test.') ||
          f.startsWith('src/') ||
          f.startsWith('packages/') ||
          f.startsWith('dist/runtime/'),
      ),
    ).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(manifest.dependencies['@idemgen/runtime']).toBe(
      (JSON.parse(readFileSync(join(ROOT, 'packages/runtime/package.json'), 'utf8')) as { version: string }).version,
    );
    const rt = runtime.files.map((f) => f.path);
    expect(rt).toEqual(
      expect.arrayContaining([
        'README.md',
        'langgraph/README.md',
        'dist/esm/index.js',
        'dist/esm/index.d.ts',
        'dist/cjs/index.js',
        'dist/cjs/index.d.ts',
        'dist/cjs/package.json',
      ]),
    );
    expect(
      rt.filter((f) => !f.startsWith('dist/') && !['README.md', 'langgraph/README.md', 'package.json'].includes(f)),
    ).toEqual([]);
  });

  test('ESM project: npx idemgen generate → tsc --strict against @idemgen/runtime, and the runtime runs', {
    timeout: 600_000,
  }, () => {
    const app = join(work, 'esm');
    cpSync(join(ROOT, 'specs'), join(app, 'specs'), { recursive: true });
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'esm-app', private: true, type: 'module' }));
    npm(
      [
        'install',
        '--no-package-lock',
        join(work, runtime.filename),
        join(work, idemgen.filename),
        'typescript@5.9',
        '@types/node@20',
      ],
      app,
    );
    execFileSync('npx', ['--no-install', 'idemgen', 'generate'], {
      cwd: app,
      stdio: 'pipe',
      env: { ...process.env, CI: 'true' },
    });
    const clients = readdirSync(join(app, 'generated', 'client')).filter((f) => f.endsWith('.gen.ts'));
    expect(clients.length).toBeGreaterThan(0);
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          target: 'ES2022',
          skipLibCheck: false,
          types: ['node'],
          noUnusedLocals: true,
        },
        include: ['generated/client/*.ts'],
      }),
    );
    execFileSync(join(app, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], { cwd: app, stdio: 'pipe' });
    writeFileSync(
      join(app, 'use.js'),
      USE_RUNTIME(
        "import * as rt from '@idemgen/runtime';\nimport * as lg from '@idemgen/runtime/langgraph';\nconst legacy = await import('idemgen/runtime').then(() => 'loaded', (e) => e.code);",
      ),
    );
    expect(JSON.parse(node('use.js', app))).toEqual({
      calls: 1,
      replay: true,
      legacy: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
      inNode: 'function',
      first: 1,
    });
    // What the generator shares with the runtime (./internal/*.js) loads from the installed package.
    writeFileSync(
      join(app, 'internal.js'),
      "const m = await import('@idemgen/runtime/internal/core/keys.js');\nconsole.log(typeof m.validateKey);",
    );
    expect(node('internal.js', app).trim()).toBe('function');
  });

  test('CommonJS project: require() of @idemgen/runtime and the langgraph entry; idemgen/runtime is not exported', {
    timeout: 600_000,
  }, () => {
    const app = join(work, 'cjs');
    cpSync(join(ROOT, 'specs'), join(app, 'specs'), { recursive: true });
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'cjs-app', version: '1.0.0', main: 'index.js' }));
    npm(['install', '--no-package-lock', join(work, runtime.filename), join(work, idemgen.filename)], app);
    writeFileSync(
      join(app, 'use.js'),
      USE_RUNTIME(
        "const rt = require('@idemgen/runtime');\nconst lg = require('@idemgen/runtime/langgraph');\nlet legacy = 'loaded';\ntry { require('idemgen/runtime'); } catch (e) { legacy = e.code; }",
      ),
    );
    expect(JSON.parse(node('use.js', app))).toEqual({
      calls: 1,
      replay: true,
      legacy: 'ERR_PACKAGE_PATH_NOT_EXPORTED',
      inNode: 'function',
      first: 1,
    });
    writeFileSync(
      join(app, 'internal.js'),
      "console.log(typeof require('@idemgen/runtime/internal/core/keys.js').validateKey);",
    );
    expect(node('internal.js', app).trim()).toBe('function');
  });

  test('production install of the runtime alone: no ts-morph, handlebars, yargs — only Ajv (tool-argument validation)', {
    timeout: 300_000,
  }, () => {
    const app = join(work, 'prod');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'prod-app', version: '1.0.0', private: true }));
    npm(['install', '--omit=dev', '--no-package-lock', join(work, runtime.filename)], app);
    const listing = npm(['ls', '--all', '--omit=dev', '--json'], app);
    const tree = JSON.parse(listing) as {
      dependencies: Record<string, { version?: string; dependencies?: Record<string, { version?: string }> }>;
    };
    expect(Object.keys(tree.dependencies)).toEqual(['@idemgen/runtime']);
    // npm ls names the optional peers (pg, better-sqlite3, redis, the MCP SDK, LangGraph, AI SDK, OpenAI) as
    // unmet: none is installed. The one dependency is Ajv, which validates tool arguments before any effect.
    const installed = Object.entries(tree.dependencies['@idemgen/runtime'].dependencies ?? {}).filter(
      ([, d]) => d.version !== undefined,
    );
    expect(installed.map(([name]) => name)).toEqual(['ajv']);
    expect(listing).not.toMatch(/ts-morph|handlebars|yargs|swagger-parser|typescript/);
    const top = readdirSync(join(app, 'node_modules'))
      .filter((n) => !n.startsWith('.'))
      .sort();
    expect(top).toEqual([
      '@idemgen',
      'ajv',
      'fast-deep-equal',
      'fast-uri',
      'json-schema-traverse',
      'require-from-string',
    ]);
    // With no driver installed the main entry (ESM and CJS) still loads; a driver entry does not, and
    // openStore names the package to install.
    writeFileSync(
      join(app, 'peers.mjs'),
      `import * as rt from '@idemgen/runtime';
import { createRequire } from 'node:module';
const cjs = createRequire(import.meta.url)('@idemgen/runtime');
const out = { esm: typeof rt.openStore, cjs: typeof cjs.openStore, sqliteInMain: 'createSqliteStore' in rt };
for (const url of ['sqlite:x.db', 'postgres://127.0.0.1/x', 'mysql://127.0.0.1/x', 'redis://127.0.0.1']) {
  out[url] = await rt.openStore(url).then(() => 'opened', (e) => e.message.split(' (')[0]);
}
out.mysqlEntry = await import('@idemgen/runtime/mysql').then(() => 'loaded', (e) => e.code);
console.log(JSON.stringify(out));
`,
    );
    expect(JSON.parse(node('peers.mjs', app))).toEqual({
      esm: 'function',
      cjs: 'function',
      sqliteInMain: false,
      'sqlite:x.db': 'install better-sqlite3 to use sqlite: stores',
      'postgres://127.0.0.1/x': 'install pg to use postgres:// stores',
      'mysql://127.0.0.1/x': 'install mysql2 to use mysql:// stores',
      'redis://127.0.0.1': 'install redis to use redis:// stores',
      mysqlEntry: 'ERR_MODULE_NOT_FOUND',
    });
  });
});
