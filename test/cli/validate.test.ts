/**
 * `idemgen validate`: fixtures with known mistakes against the official OpenAPI 2.0/3.0/3.1
 * schemas report exactly those mistakes, each once, at its own line; exit 0 / 1 / 2.
 */
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, scratchProject } from '../helpers/cli.js';
import { jsonAnswer, startFaultServer } from '../helpers/fault-server.js';

type Obj = Record<string, any>;

function fixtures(): string {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-validate-'));
  cpSync(join(ROOT, 'test/fixtures/validate'), dir, { recursive: true });
  cpSync(join(ROOT, 'test/fixtures/refs/broken-refs.yaml'), join(dir, 'broken-refs.yaml'));
  return dir;
}

async function validateJson(file: string, cwd: string): Promise<{ code: number; result: Obj }> {
  const run = await runCli(['validate', file, '--format', 'json'], cwd);
  expect(run.stderr).not.toMatch(/internal error/);
  const out = JSON.parse(run.stdout) as { files: Obj[] };
  expect(out.files).toHaveLength(1);
  return { code: run.code, result: out.files[0] };
}

const places = (r: Obj): [string, string, number][] => r.diagnostics.map((d: Obj) => [d.code, d.pointer, d.line]);

describe('idemgen validate', () => {
  const dir = fixtures();

  it.each([
    [
      'schema-errors.yaml',
      'openapi3.0',
      [
        ['spec_schema_violation', '/info', 2],
        ['spec_schema_violation', '/paths/~1pets/get/parameters/0/in', 10],
        ['spec_schema_violation', '/paths/~1pets/get/responses/200', 14],
        ['spec_schema_violation', '/paths/pets~1{id}', 19],
        ['spec_schema_violation', '/components/schemas/Pet/properties/id/type', 30],
      ],
    ],
    [
      'openapi31-errors.yaml',
      'openapi3.1',
      [
        ['spec_schema_violation', '/info/license', 5],
        ['spec_schema_violation', '/servers/0', 8],
      ],
    ],
    [
      'swagger2-schema-errors.json',
      'openapi2',
      [
        ['spec_schema_violation', '/schemes/0', 4],
        ['spec_schema_violation', '/paths/~1pets/post/responses/201', 11],
        ['spec_schema_violation', '/paths/~1pets/post/responses/201/descripton', 11],
        ['spec_schema_violation', '/definitions/Pet/required', 16],
      ],
    ],
    ['swagger2-errors.json', 'openapi2', [['spec_semantic_error', '/paths/~1pets~1{petId}/get', 6]]],
  ])('%s: each known mistake once, at its line (exit 1)', async (file, format, expected) => {
    const { code, result } = await validateJson(file, dir);
    expect(code).toBe(1);
    expect(result).toMatchObject({ file, format, valid: false });
    expect(places(result)).toEqual(expected);
    expect(result.diagnostics.every((d: Obj) => d.severity === 'error' && d.file === file && d.col > 0)).toBe(true);
  });

  it('says what is wrong in words a spec author can act on', async () => {
    const { result } = await validateJson('schema-errors.yaml', dir);
    expect(result.diagnostics.map((d: Obj) => d.message)).toEqual([
      'missing required property "version"',
      '"body" is not one of "path", "query", "header", "cookie"',
      'missing required property "description"',
      'property "pets/{id}" is not allowed here',
      '"strin" is not one of "array", "boolean", "integer", "number", "object", "string"',
    ]);
  });

  it('a dangling ref and a ref cycle make a document invalid; remote refs are warnings, not fetched', async () => {
    const { code, result } = await validateJson('broken-refs.yaml', dir);
    expect(code).toBe(1);
    const bySeverity = (s: string) =>
      result.diagnostics.filter((d: Obj) => d.severity === s).map((d: Obj) => [d.code, d.line]);
    expect(bySeverity('error')).toEqual([
      ['unresolved_ref', 63],
      ['unresolved_ref', 87],
      ['unresolved_ref', 109],
      ['ref_cycle', 119],
    ]);
    expect(bySeverity('warning')).toEqual([
      ['remote_ref', 42],
      ['remote_ref', 49],
      ['remote_ref', 117],
    ]);
  });

  it('never fetches a remote ref (a local server sees no request) and reports a Swagger 2.0 spec with one valid', async () => {
    const server = await startFaultServer({ respond: () => jsonAnswer(200, { type: 'string' }) });
    const url = `${server.url}/defs.json#/Thing`;
    const spec = {
      swagger: '2.0',
      info: { title: 't', version: '1' },
      paths: { '/a': { get: { responses: { '200': { description: 'ok', schema: { $ref: url } } } } } },
    };
    writeFileSync(join(dir, 'remote.json'), JSON.stringify(spec, null, 2));
    try {
      const { code, result } = await validateJson('remote.json', dir);
      expect(code).toBe(0);
      expect(result.valid).toBe(true);
      expect(places(result)).toEqual([['remote_ref', '/paths/~1a/get/responses/200/schema/$ref', 14]]);
    } finally {
      await server.close();
    }
    expect(server.requests).toHaveLength(0);
  });

  it('the example specs are valid (exit 0); the tool list next to them is skipped', async () => {
    const run = await runCli(['validate', 'specs'], scratchProject());
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('✔ specs/inventory.swagger.json: valid openapi2');
    expect(run.stdout).toContain('✔ specs/messaging.openapi.yaml: valid openapi3.0');
    expect(run.stdout).toContain('✔ specs/payments.openapi.yaml: valid openapi3.1');
    expect(run.stdout).not.toContain('agent-tools');
  });

  it('exit 2 for an unreadable input and for inputs with no OpenAPI document', async () => {
    writeFileSync(join(dir, 'broken.json'), '{"openapi": "3.0.0",');
    const broken = await runCli(['validate', 'broken.json'], dir);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/invalid_json/);
    expect((await runCli(['validate', 'missing.yaml'], dir)).code).toBe(2);
    const tools = await runCli(['validate', 'specs/agent-tools.mcp.json'], scratchProject());
    expect(tools.code).toBe(2);
    expect(tools.stderr).toMatch(/no_openapi_input/);
  });
});
