/**
 * A selection that leaves no tools says why in one line: which tags the specs have (or that they have
 * none) and an operation-key or name glob that would select something. A spec that does not parse stops the
 * start the same way, located, before the store is opened.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { NOTES_SPEC } from '../emit/mcp/notes-spec.js';
import { WIDGETS_SPEC } from '../emit/mcp/widgets-spec.js';
import { runCli } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'idemgen-serve-select-'));
writeFileSync(join(dir, 'widgets.json'), JSON.stringify(WIDGETS_SPEC));
writeFileSync(join(dir, 'notes.json'), JSON.stringify(NOTES_SPEC));
const store = ['--store', `sqlite:${join(dir, 'select.sqlite')}`];

it('--include tag:X on a spec without tags: says there are none and suggests a glob (exit 2, one line)', async () => {
  const run = await runCli(['serve', 'widgets.json', '--include', 'tag:Billing', ...store], dir);
  expect(run.code).toBe(2);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toContain('no tools to serve: the selection removed all 3 operations; the specs have no tags;');
  expect(run.stderr).toMatch(/e\.g\. --include "(GET|POST|DELETE) \/widgets\/?\*" or --include "\w+"/);
});

it('--include tag:X that matches no tag lists the tags the spec has', async () => {
  const run = await runCli(['serve', 'notes.json', '--include', 'tag:Billing', ...store], dir);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('the tags are "Messages";');
  expect(run.stderr).toMatch(/--include "(GET|POST) \/accounts\/\*"/);
});

it('a spec that does not parse stops the start with its located diagnostic (exit 2, no stack) before the store opens', async () => {
  writeFileSync(join(dir, 'broken.json'), '{\n  "openapi": "3.0.0",\n  "paths": {,}\n}\n');
  const file = join(dir, 'broken.sqlite');
  const run = await runCli(['serve', 'broken.json', '--store', `sqlite:${file}`, '--no-cache'], dir);
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/3:\d+.*invalid_json/);
  expect(run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(existsSync(file)).toBe(false);
});
