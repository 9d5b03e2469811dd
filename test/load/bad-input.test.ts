import { chmodSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loadInputs } from '../../src/load/index.js';
import { makeTree, MINI_OPENAPI } from './helpers.js';

describe('loadInputs: bad input becomes diagnostics, never a throw', () => {
  it('invalid_json carries the line/col of the syntax error', async () => {
    const cwd = makeTree({ 'broken.json': '{\n  "openapi": "3.0.0",\n  "paths": {,}\n}\n' });
    const { docs, diagnostics } = await loadInputs(['broken.json'], { cwd });
    expect(docs).toEqual([]);
    expect(diagnostics).toMatchObject([
      { code: 'invalid_json', severity: 'error', file: 'broken.json', line: 3, col: 13 },
    ]);
  });

  it('invalid_json at end of input points past the last character', async () => {
    const cwd = makeTree({ 'cut.json': '{\n  "swagger": "2.0",\n  "paths": {' });
    const { diagnostics } = await loadInputs(['cut.json'], { cwd });
    expect(diagnostics).toMatchObject([{ code: 'invalid_json', line: 3, col: 13 }]);
  });

  it('invalid_yaml carries the line/col of the syntax error', async () => {
    const cwd = makeTree({ 'broken.yaml': 'openapi: 3.1.0\ninfo:\n  title: x\n\tversion: 1\npaths: {}\n' });
    const { diagnostics } = await loadInputs(['broken.yaml'], { cwd });
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({
      code: 'invalid_yaml',
      severity: 'error',
      file: 'broken.yaml',
      line: 4,
      col: 1,
    });
  });

  it('empty_file for an empty or whitespace-only file', async () => {
    const cwd = makeTree({ 'empty.yaml': '  \n\n' });
    const { diagnostics } = await loadInputs(['empty.yaml'], { cwd });
    expect(diagnostics).toMatchObject([{ code: 'empty_file', severity: 'error', file: 'empty.yaml' }]);
  });

  it('input_not_found for a missing path', async () => {
    const cwd = makeTree({});
    const { diagnostics } = await loadInputs(['nope/openapi.yaml'], { cwd });
    expect(diagnostics).toMatchObject([{ code: 'input_not_found', severity: 'error', file: 'nope/openapi.yaml' }]);
  });

  it('unrecognized_input for an explicit file that is neither a spec nor a tool list', async () => {
    const cwd = makeTree({ 'package.json': '{"name":"x","version":"1.0.0"}' });
    const { docs, diagnostics } = await loadInputs(['package.json'], { cwd });
    expect(docs).toEqual([]);
    expect(diagnostics).toMatchObject([{ code: 'unrecognized_input', severity: 'error', file: 'package.json' }]);
  });

  it.each([
    ['swagger 1.2', 'swaggerVersion: "1.2"\napis: []\n', '/swaggerVersion', 1],
    ['swagger 3.0', 'info: {title: t}\nswagger: "3.0"\n', '/swagger', 2],
    ['openapi 4', '{\n  "openapi": "4.0.0",\n  "paths": {}\n}', '/openapi', 2],
  ])('unsupported_version for %s with the pointer of the version field', async (_name, text, pointer, line) => {
    const file = text.startsWith('{') ? 'v.json' : 'v.yaml';
    const cwd = makeTree({ [file]: text });
    const { docs, diagnostics } = await loadInputs([file], { cwd });
    expect(docs).toEqual([]);
    expect(diagnostics).toMatchObject([{ code: 'unsupported_version', severity: 'error', pointer, line }]);
  });

  it('unresolved_ref for an in-file ref, with the pointer and position of the $ref', async () => {
    const spec =
      'openapi: 3.0.0\ninfo: {title: t, version: "1"}\npaths:\n  /a:\n    get:\n      responses:\n        "200":\n          $ref: "#/components/responses/Missing"\n';
    const cwd = makeTree({ 'api.yaml': spec });
    const { docs, diagnostics } = await loadInputs(['api.yaml'], { cwd });
    expect(docs).toHaveLength(1);
    expect(diagnostics).toMatchObject([
      {
        code: 'unresolved_ref',
        severity: 'warning',
        file: 'api.yaml',
        pointer: '/paths/~1a/get/responses/200/$ref',
        line: 8,
        col: 11,
      },
    ]);
  });

  it('unresolved_ref for a missing external file and a missing fragment', async () => {
    const spec = {
      swagger: '2.0',
      info: { title: 't', version: '1' },
      paths: {
        '/a': {
          get: {
            responses: {
              '200': { description: 'x', schema: { $ref: 'Gone.json' } },
              '404': { description: 'y', schema: { $ref: 'defs.json#/Nope' } },
            },
          },
        },
      },
    };
    const cwd = makeTree({ 'api.json': JSON.stringify(spec, null, 1), 'defs.json': '{"Yes": {"type": "string"}}' });
    const { diagnostics } = await loadInputs(['api.json'], { cwd });
    expect(diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ['unresolved_ref', '/paths/~1a/get/responses/200/schema/$ref'],
      ['unresolved_ref', '/paths/~1a/get/responses/404/schema/$ref'],
    ]);
    expect(diagnostics.every((d) => d.line !== undefined && d.file === 'api.json')).toBe(true);
  });

  it('a broken external part reports its own syntax error with its position', async () => {
    const spec = { openapi: '3.0.0', info: { title: 't', version: '1' }, paths: { '/a': { $ref: 'paths/a.yaml' } } };
    const cwd = makeTree({ 'api.json': JSON.stringify(spec), 'paths/a.yaml': 'get:\n  responses: [\n' });
    const { diagnostics } = await loadInputs(['api.json'], { cwd });
    const codes = diagnostics.map((d) => d.code).sort();
    expect(codes).toEqual(['invalid_yaml', 'unresolved_ref']);
    expect(diagnostics.find((d) => d.code === 'invalid_yaml')).toMatchObject({ file: 'paths/a.yaml', line: 3 });
  });

  it('a broken part inside a scanned folder is reported once, by the spec that references it', async () => {
    const spec = { openapi: '3.0.0', info: { title: 't', version: '1' }, paths: { '/a': { $ref: 'paths/a.yaml' } } };
    const cwd = makeTree({ 'specs/api.json': JSON.stringify(spec), 'specs/paths/a.yaml': 'get:\n  responses: [\n' });
    const { diagnostics } = await loadInputs(['specs'], { cwd });
    expect(diagnostics.map((d) => [d.code, d.file])).toEqual([
      ['invalid_yaml', 'specs/paths/a.yaml'],
      ['unresolved_ref', 'specs/api.json'],
    ]);
  });

  it.each([
    ['JSON', 'deep.json', '['.repeat(200_000) + ']'.repeat(200_000), 'unrecognized_input'],
    ['YAML', 'deep.yaml', `a: ${'['.repeat(50_000)}${']'.repeat(50_000)}`, 'invalid_yaml'],
    [
      'bundled spec',
      'deep-spec.json',
      `{"openapi":"3.0.0","paths":{},"x":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)},"components":{"schemas":{"S":${'{"items":'.repeat(20_000)}{}${'}'.repeat(20_000)}}}}`,
      'document_too_deep',
    ],
  ])('pathologically deep %s input is a diagnostic, not a crash', async (_name, file, text, code) => {
    const cwd = makeTree({ [file]: text });
    const { diagnostics } = await loadInputs([file], { cwd });
    expect(diagnostics.map((d) => [d.code, d.severity, d.file])).toEqual([[code, 'error', file]]);
  });
});

describe('loadInputs: unreadable entries', () => {
  const isRoot = process.getuid?.() === 0;

  it('unreadable_file for a broken symlink found while scanning a directory', async () => {
    const cwd = makeTree({ 'specs/api.json': MINI_OPENAPI });
    symlinkSync(path.join(cwd, 'does-not-exist.json'), path.join(cwd, 'specs', 'dangling.json'));
    const { docs, diagnostics } = await loadInputs(['specs'], { cwd });
    expect(docs.map((d) => d.file)).toEqual(['specs/api.json']);
    expect(diagnostics).toMatchObject([{ code: 'unreadable_file', severity: 'error', file: 'specs/dangling.json' }]);
  });

  it('unreadable_file for a FIFO (not a regular file) instead of blocking on it', async () => {
    const cwd = makeTree({ 'specs/api.json': MINI_OPENAPI });
    execFileSync('mkfifo', [path.join(cwd, 'specs', 'pipe.yaml')]);
    const { docs, diagnostics } = await loadInputs(['specs'], { cwd });
    expect(docs).toHaveLength(1);
    expect(diagnostics).toMatchObject([{ code: 'unreadable_file', file: 'specs/pipe.yaml' }]);
  });

  it('unreadable_file for a file without read permission', async () => {
    const cwd = makeTree({ 'locked.json': MINI_OPENAPI });
    chmodSync(path.join(cwd, 'locked.json'), 0o000);
    if (!isRoot) {
      const { diagnostics } = await loadInputs(['locked.json'], { cwd });
      expect(diagnostics).toMatchObject([{ code: 'unreadable_file', file: 'locked.json' }]);
      return;
    }
    // root reads anything: a child process loads the loader as root, then drops to `nobody` and reads.
    chmodSync(cwd, 0o755);
    const loader = pathToFileURL(path.resolve(import.meta.dirname, '..', '..', 'src', 'load', 'index.ts')).href;
    const script = `const { loadInputs } = await import(${JSON.stringify(loader)});
process.setgid('nogroup'); process.setuid('nobody');
const r = await loadInputs(['locked.json'], { cwd: ${JSON.stringify(cwd)} });
console.log(JSON.stringify(r.diagnostics));`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '..', '..'),
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject([{ code: 'unreadable_file', file: 'locked.json' }]);
  });
});
