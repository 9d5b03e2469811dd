import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadInputs } from '../../src/load/index.js';
import { makeTree, MINI_OPENAPI } from './helpers.js';

/** A Swagger 2.0 spec split over five files (our own fixture: spec/, common/). */
const SEPARATE = path.resolve(import.meta.dirname, '../fixtures/load/swagger-separate');

describe('loadInputs: directories', () => {
  it('scans recursively for .json/.yaml/.yml, skipping node_modules and dot-folders', async () => {
    const cwd = makeTree({
      'specs/a.openapi.json': MINI_OPENAPI,
      'specs/nested/b.yml': 'swagger: "2.0"\ninfo: {title: b, version: "1"}\npaths: {}\n',
      'specs/tools.yaml': 'tools:\n  - name: send_email\n    inputSchema: {type: object}\n',
      'specs/node_modules/dep/openapi.json': MINI_OPENAPI,
      'specs/.cache/openapi.json': MINI_OPENAPI,
      'specs/notes.md': '# not scanned',
    });
    const { docs, diagnostics } = await loadInputs(['specs'], { cwd });
    expect(diagnostics).toEqual([]);
    expect(docs.map((d) => [d.file, d.kind, d.format])).toEqual([
      ['specs/a.openapi.json', 'openapi', 'openapi3.0'],
      ['specs/nested/b.yml', 'openapi', 'openapi2'],
      ['specs/tools.yaml', 'tools', 'mcp'],
    ]);
  });

  it('an unreferenced non-spec file in a directory is an info unrecognized_file, not an error', async () => {
    const cwd = makeTree({ 'specs/api.json': MINI_OPENAPI, 'specs/settings.json': '{"theme":"dark"}' });
    const { docs, diagnostics } = await loadInputs(['specs'], { cwd });
    expect(docs).toHaveLength(1);
    expect(diagnostics).toMatchObject([{ code: 'unrecognized_file', severity: 'info', file: 'specs/settings.json' }]);
  });

  it('an empty file in a directory is a warning; a broken one an error', async () => {
    const cwd = makeTree({ 'specs/empty.yaml': '', 'specs/bad.json': '{"openapi": }' });
    const { diagnostics } = await loadInputs(['specs'], { cwd });
    expect(diagnostics.map((d) => [d.code, d.severity, d.file])).toEqual([
      ['invalid_json', 'error', 'specs/bad.json'],
      ['empty_file', 'warning', 'specs/empty.yaml'],
    ]);
  });

  it('multi-file Swagger (swagger-separate): parts are bundled, not reported, and only the root is a doc', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'idemgen-sep-'));
    cpSync(SEPARATE, path.join(dir, 'kennel'), { recursive: true });
    const { docs, diagnostics } = await loadInputs(['kennel'], { cwd: dir });
    expect(diagnostics).toEqual([]);
    expect(docs).toHaveLength(1);
    const doc = docs[0];
    expect(doc.file).toBe('kennel/spec/swagger.json');
    expect(doc.parts).toEqual([
      'kennel/common/Problem.json',
      'kennel/spec/Dog.json',
      'kennel/spec/NewDog.json',
      'kennel/spec/parameters.json',
    ]);
    const root = doc.root as any;
    // First site inlined, later references rewritten to it: no external refs remain.
    const text = JSON.stringify(root);
    expect(text).not.toMatch(/"\$ref":"(?!#)/);
    expect(root.paths['/dogs'].get.parameters[0]).toMatchObject({ name: 'breed', in: 'query' });
    expect(root.paths['/dogs'].get.responses['200'].schema.items).toMatchObject({
      type: 'object',
      required: ['id', 'name'],
    });
    expect(root.paths['/dogs'].post.responses['200'].schema).toEqual({
      $ref: '#/paths/~1dogs/get/responses/200/schema/items',
    });
  });

  it('an explicit part file given alone is unrecognized_input', async () => {
    const { diagnostics } = await loadInputs([path.join(SEPARATE, 'spec/Dog.json')], { cwd: SEPARATE });
    expect(diagnostics).toMatchObject([{ code: 'unrecognized_input', severity: 'error', file: 'spec/Dog.json' }]);
  });

  it('a file named twice (directly and through its folder) is loaded once', async () => {
    const cwd = makeTree({ 'specs/api.json': MINI_OPENAPI });
    const { docs } = await loadInputs(['specs/api.json', 'specs', './specs/api.json'], { cwd });
    expect(docs.map((d) => d.file)).toEqual(['specs/api.json']);
  });
});
