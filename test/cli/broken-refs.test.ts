/**
 * A spec with a dangling ref, remote refs, a ref into a missing file and a ref-only cycle still
 * yields every operation; each broken ref is one warning with its line; --strict refuses.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listFiles } from '../../src/cli/output-dir.js';
import { typeCheck, writeBatch } from '../emit/client/helpers/compile.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { compileError, createAjv } from '../emit/tools/ajv.js';
import { checkStrictName, checkStrictSchema } from '../emit/tools/openai-strict.js';

type Obj = Record<string, any>;

const OPERATIONS = [
  'DELETE /items/{itemId}',
  'GET /pets',
  'POST /loops',
  'POST /orders',
  'POST /pets',
  'PUT /files/{id}',
];

/** [code, pointer, line] of each broken ref in test/fixtures/refs/broken-refs.yaml, in line order. */
const BROKEN = [
  ['remote_ref', '/paths/~1orders/post/requestBody/content/application~1json/schema/$ref', 42],
  ['remote_ref', '/paths/~1orders/post/responses/201/content/application~1json/schema/$ref', 49],
  ['unresolved_ref', '/paths/~1files~1{id}/put/requestBody/content/application~1json/schema/$ref', 63],
  ['unresolved_ref', '/paths/~1items~1{itemId}/delete/parameters/1/$ref', 87],
  ['unresolved_ref', '/components/schemas/Pet/properties/owner/$ref', 109],
  ['remote_ref', '/components/schemas/NewPet/properties/tag/$ref', 117],
  ['ref_cycle', '/components/schemas/LoopA/$ref', 119],
];
const BROKEN_CODES = new Set(['unresolved_ref', 'remote_ref', 'ref_cycle', 'tools_unresolved_ref']);

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-refs-'));
  cpSync(join(ROOT, 'test/fixtures/refs/broken-refs.yaml'), join(dir, 'broken-refs.yaml'));
  writeFileSync(
    join(dir, 'idemgen.config.json'),
    JSON.stringify({ tools: { formats: ['mcp', 'openai', 'anthropic'] } }),
  );
  return dir;
}

describe('broken references degrade instead of aborting', () => {
  it('audit lists every operation and one warning per broken ref, with its line (exit 0; 1 with --fail-on warning)', async () => {
    const dir = project();
    const run = await runCli(['audit', 'broken-refs.yaml', '--format', 'json'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as Obj;
    const keys = (report.operations as Obj[]).map((o) => o.key).sort();
    expect(keys).toEqual(OPERATIONS);
    const findings = report.diagnostics as Obj[];
    const broken = findings.filter((d) => BROKEN_CODES.has(d.code)).map((d) => [d.code, d.pointer, d.line]);
    expect(broken.sort((a, b) => a[2] - b[2])).toEqual(BROKEN);
    expect(
      findings
        .filter((d) => BROKEN_CODES.has(d.code))
        .every((d) => d.severity === 'warning' && d.file === 'broken-refs.yaml'),
    ).toBe(true);
    expect((await runCli(['audit', 'broken-refs.yaml', '--fail-on', 'warning'], dir)).code).toBe(1);
  });

  it('generate writes every operation (exit 0); the client compiles under --strict with unknown for broken schemas', async () => {
    const dir = project();
    const run = await runCli(['generate', 'broken-refs.yaml', '--out', 'out'], dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/0 error\(s\), /);
    const client = readFileSync(join(dir, 'out/client/broken-refs.gen.ts'), 'utf8');
    for (const method of ['deleteItem', 'listPets', 'createLoop', 'createOrder', 'createPet', 'putFile'])
      expect(client).toMatch(new RegExp(`^  (async )?${method}[<(]`, 'm'));
    expect(client).toMatch(/createOrder<.*\): Promise<RunResult<unknown>> \{/); // its 200 schema is a broken ref
    expect(client).toMatch(/export type LoopA = unknown;/);
    expect(client).toMatch(/owner\?: unknown;/);
    const checked = typeCheck(writeBatch('broken-refs', new Map([['broken-refs.gen.ts', client]])));
    expect(checked.get('broken-refs.gen.ts')).toEqual([]);
  });

  it('tool schemas stay valid: Ajv 2020 strict compiles them, the OpenAI ones pass the strict-mode checker', async () => {
    const dir = project();
    expect((await runCli(['generate', 'broken-refs.yaml', '--out', 'out'], dir)).code).toBe(0);
    const ajv = createAjv();
    const mcp = JSON.parse(readFileSync(join(dir, 'out/tools/mcp/broken-refs.tools.json'), 'utf8')).tools as Obj[];
    expect(mcp).toHaveLength(OPERATIONS.length);
    for (const tool of mcp) expect([tool.name, compileError(ajv, tool.inputSchema)]).toEqual([tool.name, undefined]);
    const openai = JSON.parse(readFileSync(join(dir, 'out/tools/openai/broken-refs.tools.json'), 'utf8')) as Obj[];
    expect(openai).toHaveLength(OPERATIONS.length);
    for (const tool of openai) {
      expect([
        tool.function.name,
        ...checkStrictName(tool.function.name),
        ...checkStrictSchema(tool.function.parameters),
      ]).toEqual([tool.function.name]);
      expect(compileError(ajv, tool.function.parameters)).toBeUndefined();
    }
    const loop = mcp.find((t) => t.name === 'createLoop') as Obj;
    expect(loop.inputSchema.properties.body).toEqual({});
  });

  it('generate --strict refuses with every broken ref as an error and writes nothing (exit 2)', async () => {
    const dir = project();
    const run = await runCli(['generate', 'broken-refs.yaml', '--out', 'out', '--strict'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/7 error\(s\), 0 warning\(s\)/);
    for (const [, , line] of BROKEN) expect(run.stderr).toContain(`${line}:`);
    expect(existsSync(join(dir, 'out'))).toBe(false);
    // A lenient run's cache never lets a later strict run pass.
    expect((await runCli(['generate', 'broken-refs.yaml', '--out', 'out'], dir)).code).toBe(0);
    expect((await runCli(['generate', 'broken-refs.yaml', '--out', 'out', '--strict'], dir)).code).toBe(2);
    expect(listFiles(join(dir, 'out'))).toEqual([
      'client/broken-refs.gen.ts',
      'handlers/broken-refs.bindings.gen.ts',
      'handlers/broken-refs.tools.gen.ts',
      'mcp/broken-refs.server.gen.ts',
      'mcp/store-tables.gen.ts',
      'report/audit.json',
      'report/audit.md',
      ...['mysql', 'postgres', 'sqlite'].flatMap((d) => [
        `sql/${d}/0001_idemgen_dedup.down.sql`,
        `sql/${d}/0001_idemgen_dedup.up.sql`,
      ]),
      ...['anthropic', 'mcp', 'openai'].flatMap((f) => [
        `tools/${f}/broken-refs.names.json`,
        `tools/${f}/broken-refs.tools.json`,
      ]),
    ]); // the lenient run's output, untouched by the refused strict run
  });

  it('a path parameter behind a broken ref stays a required path parameter, so no URL is sent with {name} in it', async () => {
    const dir = project();
    const spec = {
      openapi: '3.0.3',
      info: { title: 'w', version: '1' },
      paths: {
        '/widgets/{widgetId}': {
          get: {
            operationId: 'getWidget',
            parameters: [{ $ref: '#/components/parameters/WidgetId' }],
            responses: { '200': { description: 'ok' } },
          },
        },
      },
    };
    writeFileSync(join(dir, 'w.json'), JSON.stringify(spec, null, 2));
    const run = await runCli(['generate', 'w.json', '--out', 'out'], dir);
    expect(run.code).toBe(0);
    expect(run.stderr.match(/unresolved_ref/g)).toHaveLength(1);
    const client = readFileSync(join(dir, 'out/client/w.gen.ts'), 'utf8');
    expect(client).toMatch(/widgetId: unknown;/);
    // The template goes to the runtime with the declared name, which substitutes the request's value (never a
    // literal `{widgetId}` on the wire).
    expect(client).toContain('path: "/widgets/{widgetId}", mechanism: "none", pathParams: ["widgetId"]');
    expect(typeCheck(writeBatch('broken-path-param', new Map([['w.gen.ts', client]]))).get('w.gen.ts')).toEqual([]);
    const tool = JSON.parse(readFileSync(join(dir, 'out/tools/mcp/w.tools.json'), 'utf8')).tools[0] as Obj;
    expect(tool.inputSchema.required).toEqual(['widgetId']);
  });
});
