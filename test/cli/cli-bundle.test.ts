/**
 * bin/idemgen.js runs the CLI bundle (scripts/bundle-cli.mjs, dist/cli-bundle/). What the bundle must keep from
 * the separate modules: one runtime, and the paths to idemgen's own files. Its chunks hold idemgen's compiled
 * modules (and Handlebars' runtime) and import only Node's modules, packages (the runtime among them), one another and
 * dist/package-files.js (which computes those paths from its own place), and what reads those paths
 * works from the bundle: `serve --code` starts its worker (dist/serve/code/worker.js) and runs a script through
 * it, with a SQLite store it created (the SQL emitter's stamp reads dist/emit/sql/ and templates/sql/).
 * The templates (package.json, templates/) are covered by precompiled-templates.test.ts, which runs `check`
 * through bin/idemgen.js.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { call, httpClient } from '../emit/mcp/client.js';
import { ROOT } from '../helpers/cli.js';
import { jsonAnswer, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { SHOP_SPEC } from '../serve/shop-spec.js';
import { spawnServe, type ServeProcess } from '../serve/spawn-serve.js';

const BUNDLE = join(ROOT, 'dist/cli-bundle');

/** The specifiers a chunk imports, statically or dynamically (TypeScript's pre-processor, as the layer check reads them). */
const importsOf = (text: string): string[] => ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);

describe('the CLI bundle', () => {
  it('is what bin/idemgen.js runs, and its chunks import only builtins, packages, each other and package-files.js', () => {
    expect(readFileSync(join(ROOT, 'bin/idemgen.js'), 'utf8')).toMatch(/from '\.\.\/dist\/cli-bundle\/main\.js'/);
    const files = readdirSync(BUNDLE).filter((f) => f.endsWith('.js'));
    expect(files).toContain('main.js');
    const relative = new Set<string>();
    const absolute: string[] = [];
    for (const f of files)
      for (const spec of importsOf(readFileSync(join(BUNDLE, f), 'utf8'))) {
        if (spec.startsWith('.')) relative.add(spec);
        else if (spec.startsWith('/') || spec.startsWith('file:')) absolute.push(`${f}: ${spec}`);
      }
    const outside = [...relative].filter((s) => !(s.startsWith('./') && files.includes(s.slice(2))));
    // The one module kept out of the chunks; nothing else reaches into dist/ (or src/) beside the bundle.
    expect(outside).toEqual(['../package-files.js']);
    // A path of the machine that built it would break in every install.
    expect(absolute).toEqual([]);
    // What the chunks hold is idemgen's compiled modules (esbuild heads each with a `// <path>` line) and
    // Handlebars' runtime (decision 0230): not a copy of the runtime (a tsconfig `paths` entry once pulled in
    // its sources) nor of another package.
    const modules = files.flatMap((f) =>
      [...readFileSync(join(BUNDLE, f), 'utf8').matchAll(/^\/\/ ((?:dist|src|packages|node_modules)\/\S+)$/gm)].map(
        (m) => m[1] as string,
      ),
    );
    expect(modules.length).toBeGreaterThan(100);
    const handlebars = modules.filter((m) => m.startsWith('node_modules/handlebars/'));
    expect(handlebars).toContain('node_modules/handlebars/runtime.js');
    expect(handlebars.filter((m) => !/^node_modules\/handlebars\/(runtime\.js|dist\/cjs\/)/.test(m))).toEqual([]);
    expect(modules.filter((m) => !m.startsWith('dist/') && !handlebars.includes(m))).toEqual([]);
    // The commands run from chunks: the bundle is more than main.js, and far fewer files than dist/ has modules.
    expect(files.length).toBeGreaterThan(5);
  });

  describe('serve --code from the bundle', () => {
    let api: FaultServer | undefined;
    let serve: ServeProcess | undefined;
    let client: Client | undefined;
    afterAll(async () => {
      await client?.close();
      await serve?.stop();
      await api?.close();
    });

    it('runs a script in its worker against a SQLite store it created', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'idemgen-cli-bundle-'));
      const spec = join(dir, 'shop.json');
      writeFileSync(spec, JSON.stringify(SHOP_SPEC));
      api = await startFaultServer({
        respond: (req, effect) => jsonAnswer(200, { id: `obj_${effect}`, path: req.path }),
      });
      serve = await spawnServe(
        [spec, '--code', '--http', '0', '--base-url', api.url, '--store', `sqlite:${join(dir, 'd.sqlite')}`],
        {},
        { built: true },
      );
      client = await httpClient(serve.url);
      const code = "const order = await api.createOrder({ body: { item: 'book' } }); return order.id;";
      const first = await call(client, 'execute', { code, idempotency_key: 'bundle-run-0000001' }, 60_000);
      const again = await call(client, 'execute', { code, idempotency_key: 'bundle-run-0000001' }, 60_000);
      expect(first.isError, JSON.stringify(first)).toBeFalsy();
      expect(first.structuredContent).toMatchObject({ result: 'obj_1' });
      expect(again.structuredContent).toMatchObject({ result: 'obj_1' });
      expect(api.effectsOn('/orders')).toBe(1);
    }, 120_000);
  });
});
