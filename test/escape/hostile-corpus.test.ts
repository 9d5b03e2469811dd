/**
 * The hostile corpus (test/fixtures/hostile): payloads in paths, operationIds, parameter/property/schema
 * names, enum values, defaults, examples, server URLs, titles, tags, tool names and descriptions. Every
 * payload that could run sets `globalThis.__pwned`; the CLI generates into a scratch folder as a user would.
 */
import Database from 'better-sqlite3';
import MarkdownIt from 'markdown-it';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from '../../src/cli/output-dir.js';
import { createMemoryStore } from '../../packages/runtime/src/index.js';
import { OUT_ROOT, typeCheck, writeBatch } from '../emit/client/helpers/compile.js';
import { importClient } from '../emit/client/helpers/import-client.js';
import { ROOT, runCli } from '../helpers/cli.js';

const g = globalThis as { __pwned?: unknown };
const HOSTILE_PUT = "PUT /orders\n'); CREATE TABLE pwned(x); --";

let dir: string;
let before: string[];
let out: (path: string) => string;
let outFiles: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'idemgen-hostile-'));
  cpSync(join(ROOT, 'test/fixtures/hostile'), join(dir, 'hostile'), { recursive: true });
  // An owned-table override on the operation whose key carries SQL, so the SQL emitter writes it too.
  const config = {
    inputs: ['hostile'],
    out: 'out',
    overrides: { [HOSTILE_PUT]: { mechanism: 'unique-insert', table: 'orders' } },
    tools: { formats: ['mcp', 'openai', 'anthropic'] },
  };
  writeFileSync(join(dir, 'idemgen.config.json'), JSON.stringify(config));
  before = listFiles(dir);
  const run = await runCli(['generate', '--no-cache', '--out', 'out'], dir);
  expect(run.stderr).not.toMatch(/internal error/i);
  expect(run.code).toBe(0);
  out = (p) => readFileSync(join(dir, 'out', p), 'utf8');
  outFiles = listFiles(join(dir, 'out'));
});

afterEach(() => {
  expect(g.__pwned).toBeUndefined();
});

describe('the hostile corpus', () => {
  it('writes only inside --out, with safe, distinct file names', () => {
    const added = listFiles(dir).filter((f) => !before.includes(f));
    expect(added).toHaveLength(37); // with mcp/store-tables.gen.ts and handlers/hostile.bindings.gen.ts
    expect(added.filter((f) => !f.startsWith('out/'))).toEqual([]);
    for (const f of outFiles)
      expect(f).toMatch(/^(client|handlers|mcp|report|sql|tools)\/([a-z]+\/)?[a-z0-9][a-z0-9._-]*$/);
    expect(outFiles.filter((f) => /(^|\/)(con|nul|prn|aux|com\d|lpt\d)\./i.test(f))).toEqual([]);
    expect(new Set(outFiles.map((f) => f.toLowerCase())).size).toBe(outFiles.length);
    expect(outFiles).toContain('tools/mcp/con_.tools.json');
  });

  it('has no raw line or paragraph separator in any output file', () => {
    for (const f of outFiles) expect(out(f), f).not.toMatch(/[\u2028\u2029\u202e]/);
  });

  it('generated client compiles under --strict --noUnusedLocals', () => {
    const clients = outFiles.filter((f) => f.startsWith('client/'));
    expect(clients).toEqual(['client/hostile.gen.ts']);
    const paths = writeBatch('hostile', new Map(clients.map((f) => [f.slice('client/'.length), out(f)])));
    expect(Object.fromEntries(typeCheck(paths))).toEqual({ 'hostile.gen.ts': [] });
  });

  it('generated tool handlers and MCP server modules compile under --strict --noUnusedLocals', () => {
    expect(outFiles.filter((f) => f.startsWith('handlers/'))).toEqual([
      'handlers/hostile.bindings.gen.ts',
      'handlers/hostile.tools.gen.ts',
    ]);
    const modules = outFiles.filter((f) => (f.startsWith('handlers/') || f.startsWith('mcp/')) && f.endsWith('.ts'));
    expect(modules).toEqual([
      'handlers/hostile.bindings.gen.ts',
      'handlers/hostile.tools.gen.ts',
      'mcp/hostile.server.gen.ts',
      'mcp/store-tables.gen.ts',
    ]);
    // Inside the repository (test/emit/client/__out__), so the MCP SDK and the runtime resolve as in a user's project.
    const base = join(OUT_ROOT, 'hostile-modules');
    rmSync(base, { recursive: true, force: true });
    const paths = new Map<string, string>();
    for (const f of modules) {
      mkdirSync(join(base, dirname(f)), { recursive: true });
      writeFileSync(join(base, f), out(f));
      paths.set(f, join(base, f));
    }
    writeFileSync(join(base, 'package.json'), '{ "type": "module" }\n');
    expect(Object.fromEntries(typeCheck(paths))).toEqual(Object.fromEntries(modules.map((f) => [f, []])));
  });

  it('importing the client and calling every method with a stub fetch runs no payload', async () => {
    const files = [{ path: 'client/hostile.gen.ts', contents: out('client/hostile.gen.ts') }];
    const create = await importClient('hostile-run', files, 'client/hostile.gen.ts', 'createHostileClient');
    expect(g.__pwned).toBeUndefined();
    const urls: string[] = [];
    const fetch = async (url: string | URL): Promise<Response> => {
      urls.push(String(url));
      return new Response(JSON.stringify({ id: 'id_1' }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    const client = create({ baseUrl: 'http://127.0.0.1:9', fetch, store: createMemoryStore(), retry: { attempts: 1 } });
    const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(client))
      .filter((n) => n !== 'constructor')
      .sort();
    expect(methods).toEqual([
      'con',
      'constructor_',
      'createGlobalThisPwned1',
      'deleteThing',
      'getD',
      'proto',
      'putOrder',
      'then_',
    ]);
    const path = new Proxy({}, { get: () => 'v' });
    // The spec's own hostile query names (one of them `__proto__`, so built by JSON.parse, as an agent's
    // arguments would be). A method whose operation declares none of them refuses before sending.
    const query = JSON.parse('{"${globalThis.__pwned=1}":"q1","__proto__":"q2"}') as Record<string, string>;
    const refused: string[] = [];
    for (const m of methods) {
      const call = (q: Record<string, string>) =>
        client[m]!({ path, query: q, header: {}, cookie: {}, body: { n: 1 } }, { key: `${m}-${'k'.repeat(24)}` });
      const sentBefore = urls.length;
      try {
        await call(query);
      } catch (err) {
        expect((err as Error).name).toBe('InvalidArgumentsError');
        expect((err as Error).message).toMatch(/is not declared by the operation/);
        expect(urls).toHaveLength(sentBefore);
        refused.push(m);
        await call({});
      }
    }
    expect(urls).toHaveLength(methods.length);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThan(methods.length);
    // The declared names went out percent-encoded in the query string (`__proto__` as a plain name), the payload as data.
    expect(urls).toContain(
      'http://127.0.0.1:9/a/v/$%7BglobalThis.__pwned=1%7D?%24%7BglobalThis.__pwned%3D1%7D=q1&__proto__=q2',
    );
    expect(urls.map(decodeURI)).toContain('http://127.0.0.1:9/b/`+globalThis.__pwned=1+`/v');
    expect(g.__pwned).toBeUndefined();
  });

  it('renders the Markdown report with no live HTML and no broken table rows', () => {
    const md = new MarkdownIt({ html: true });
    const text = out('report/audit.md');
    const tokens = md.parse(text, {}).flatMap((t) => [t, ...(t.children ?? [])]);
    // The only HTML the report writes itself: the `<br>` between reasons, each row's `[a-z0-9-]` anchor, and
    // the folded lists (`<details>` with a summary of our own words, a count, a rule id or a row's cells
    // escaped as HTML text).
    const own = (c: string): boolean =>
      c === '<br>' ||
      c === '</a>' ||
      /^<a id="[a-z0-9-]+">(<\/a>)?$/.test(c) ||
      /^<details><summary>\d+ read-only operations?: plain calls, no key<\/summary>\n$/.test(c) ||
      /^<details><summary>\d+ notes <code>[a-z0-9_]+<\/code>: where<\/summary>\n$/.test(c) ||
      /^<details><summary>\d+ [^<>]+<\/summary>\n$/.test(c) ||
      c === '</details>\n';
    const htmlTokens = tokens.filter((t) => t.type.startsWith('html')).map((t) => t.content);
    expect(htmlTokens.filter((c) => !own(c))).toEqual([]);
    expect(htmlTokens.filter((c) => c.startsWith('<a id=')).length).toBeGreaterThan(0);
    // Our own per-file section headings (`### Findings`, `### Writes`) are the only h3s.
    const html = md
      .render(text)
      .replace(/<a id="[a-z0-9-]+"><\/a>/g, '')
      .replace(/<h3>(Findings|Writes)<\/h3>/g, '');
    expect(html).not.toMatch(/<(img|script|a|strong|em|del|b|h[3-6])\b/i);
    expect(html).toContain('&lt;img src=x onerror=');
    expect(html).toContain('&lt;script&gt;globalThis.__pwned=1&lt;/script&gt;');
    // Every body row has as many cells as its header: no payload pipe split a cell.
    for (const table of html.split('<table>').slice(1)) {
      const head = (table.split('</thead>')[0]!.match(/<th(?=[\s>])/g) ?? []).length;
      for (const row of table.split('</thead>')[1]!.split('</table>')[0]!.split('<tr>').slice(1)) {
        expect((row.match(/<td(?=[\s>])/g) ?? []).length).toBe(head);
      }
    }
    expect(text).toContain("PUT /orders '); CREATE TABLE pwned(x); --");
  });

  it('SQL comments hold payloads as one ASCII line, and the migrations run on SQLite creating only our tables', () => {
    const sql = outFiles.filter((f) => f.startsWith('sql/sqlite/') && f.endsWith('.up.sql')).sort();
    expect(sql.some((f) => f.includes('_owned_orders'))).toBe(true);
    const db = new Database(':memory:');
    db.exec('CREATE TABLE orders (id INTEGER PRIMARY KEY)');
    for (const f of sql) {
      const text = out(f);
      for (const line of text.split('\n').filter((l) => l.startsWith('--'))) expect(line).toMatch(/^[\x20-\x7e]*$/);
      db.exec(text);
    }
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string;
    }[];
    expect(tables.map((t) => t.name)).toEqual(['idemgen_dedup', 'idemgen_saga', 'orders']);
    db.close();
  });

  it('the text audit and the diagnostics printed by generate write no control sequence to the terminal', async () => {
    const audit = await runCli(['audit', '--fail-on', 'none', '--verbose'], dir);
    expect(audit.code).toBe(0);
    expect(audit.stdout).toContain('wipe\\u001b[2J');
    const gen = await runCli(['generate', '--no-cache', '--verbose', '--out', 'out2'], dir);
    for (const text of [audit.stdout, audit.stderr, gen.stdout, gen.stderr]) {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the assertion is that no raw control character reaches the output
      expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    }
  });

  it('tool files are valid JSON with names each target accepts, payload texts kept as data', () => {
    for (const target of ['mcp', 'openai', 'anthropic']) {
      const raw = JSON.parse(out(`tools/${target}/con_.tools.json`)) as unknown;
      const tools = (target === 'mcp' ? (raw as { tools: unknown[] }).tools : raw) as Record<string, any>[];
      const names = tools.map((t) => (target === 'openai' ? t.function.name : t.name) as string);
      expect(names).toHaveLength(7);
      for (const n of names) expect(n).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    }
    expect(out('tools/mcp/con_.tools.json')).toContain('<script>globalThis.__pwned=1</script>');
  });
});
