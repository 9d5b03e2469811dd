import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-err-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const NO_STACK = /\n\s+at .+:\d+:\d+/;

describe('user mistakes exit 2 with a diagnostic and no stack trace', () => {
  test.each([
    [
      'a missing path',
      {},
      ['generate', 'nope.yaml'],
      /^no spec or tool list in nope\.yaml \(not found\): .*\(no_input_document\)$/m,
    ],
    [
      'invalid JSON (with line:col)',
      { 'bad.json': '{\n  "openapi": "3.0.0",\n  "paths": {,}\n}\n' },
      ['generate', 'bad.json'],
      /3:\d+.*invalid_json/,
    ],
    [
      'invalid YAML (with line:col)',
      { 'bad.yaml': 'openapi: 3.0.0\ninfo:\n  title: [unclosed\n' },
      ['audit', 'bad.yaml'],
      /\d+:\d+.*invalid_yaml/,
    ],
    ['an empty file', { 'empty.yaml': '' }, ['generate', 'empty.yaml'], /empty_file/],
    [
      'a file that is neither a spec nor a tool list',
      { 'x.json': '{"hello": "world"}' },
      ['audit', 'x.json'],
      /^no spec or tool list in x\.json \(not a spec\): .*\(no_input_document\)$/m,
    ],
    ['an unknown config key', { 'idemgen.config.json': '{"inptus": ["specs"]}' }, ['generate'], /invalid_config/],
    [
      'a bad mechanism in config',
      { 'idemgen.config.yaml': 'overrides:\n  "POST /x": { mechanism: OP-9 }\n' },
      ['audit'],
      /\/overrides\/POST ~1x\/mechanism/,
    ],
    ['an unknown command', {}, ['frobnicate'], /Unknown command "frobnicate"|Name a command/],
  ])('%s', async (_name, files, args, expected) => {
    const dir = project(files as Record<string, string>);
    const run = await runCli(args as string[], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(expected);
    expect(run.stderr).not.toMatch(NO_STACK);
    expect(run.stderr).not.toMatch(/internal error/);
  });

  test('inputs with no spec (empty folder, missing file, a folder of other files): exit 2, one line, generated/ as it was', async () => {
    const { cpSync, readdirSync, readFileSync, statSync } = await import('node:fs');
    const { ROOT } = await import('../helpers/cli.js');
    const dir = project({ 'notes/package.json': '{"name":"x"}', 'notes/a.yaml': 'a: 1\n' });
    mkdirSync(join(dir, 'empty'));
    cpSync(join(ROOT, 'specs'), join(dir, 'specs'), { recursive: true });
    expect((await runCli(['generate'], dir)).code).toBe(0);
    const snapshot = (at: string): string[] =>
      readdirSync(at)
        .sort()
        .flatMap((n) =>
          statSync(join(at, n)).isDirectory()
            ? snapshot(join(at, n)).map((f) => `${n}/${f}`)
            : [`${n}:${readFileSync(join(at, n), 'base64')}`],
        );
    const before = snapshot(join(dir, 'generated'));
    expect(before.length).toBeGreaterThan(20);
    for (const [input, searched] of [
      ['empty', 'empty/ (no .json, .yaml or .yml file)'],
      ['missing.yaml', 'missing.yaml (not found)'],
      ['notes', 'notes/ (2 .json/.yaml files, none a spec)'],
    ]) {
      const run = await runCli(['generate', input!, '--no-cache'], dir);
      expect(run.code).toBe(2);
      expect(run.stderr.trim().split('\n')).toEqual([
        `no spec or tool list in ${searched}: idemgen reads OpenAPI 3.0/3.1 and Swagger 2.0 documents and MCP, OpenAI or Anthropic tool lists, as .json, .yaml or .yml files (no_input_document)`,
      ]);
      expect(snapshot(join(dir, 'generated'))).toEqual(before);
    }
  });

  test('nothing is written when an input is broken', async () => {
    const dir = project({ 'specs/bad.json': '{' });
    const run = await runCli(['generate'], dir);
    expect(run.code).toBe(2);
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(dir, 'generated'))).toBe(false);
  });
});

describe('help and version', () => {
  test('--help lists the commands and exits 0', async () => {
    const run = await runCli(['--help'], tmpdir());
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).toMatch(/generate[\s\S]*audit[\s\S]*check/);
  });
  test('generate --help documents --out', async () => {
    const run = await runCli(['generate', '--help'], tmpdir());
    expect(run.code).toBe(0);
    expect(run.stdout + run.stderr).toMatch(/--out/);
  });
});
