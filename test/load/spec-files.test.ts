/**
 * One walk decides which files of an input folder a run reads (src/spec-files.ts): discovery, the cache
 * fingerprint and the no-document message agree on it, and a folder that loops through a symlink is walked
 * once instead of crashing the fingerprint (which walked on its own before and recursed until the stack
 * ran out: every command over such a folder ended in an internal error).
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inputFiles } from '../../src/cache/fingerprint.js';
import { discoverInputs } from '../../src/load/discover.js';
import { specFilesIn, type WalkProblem } from '../../src/spec-files.js';
import { runCli, scratchProject } from '../helpers/cli.js';
import { makeTree, MINI_OPENAPI } from './helpers.js';

/** specs/ with a loop back to itself, a self-referencing link, hidden, node_modules and output folders. */
function loopingTree(): { dir: string; specs: string } {
  const dir = makeTree({
    'specs/a.json': MINI_OPENAPI,
    'specs/sub/b.yaml': MINI_OPENAPI,
    'specs/sub/notes.txt': 'not a spec',
    'specs/.hidden/c.json': MINI_OPENAPI,
    'specs/node_modules/d.json': MINI_OPENAPI,
    'specs/out/e.json': MINI_OPENAPI,
  });
  const specs = path.join(dir, 'specs');
  symlinkSync(specs, path.join(specs, 'sub', 'back-to-top'));
  symlinkSync(path.join(specs, 'self.json'), path.join(specs, 'self.json'));
  return { dir, specs };
}

describe('the walk over an input folder', () => {
  it('lists each spec file once, passes over hidden, node_modules and skipped folders, and reports a link it cannot follow', () => {
    const { specs } = loopingTree();
    const problems: WalkProblem[] = [];
    const files = specFilesIn(specs, new Set([path.join(specs, 'out')]), (p) => problems.push(p));
    expect(files.map((f) => path.relative(specs, f))).toEqual(['a.json', 'sub/b.yaml']);
    expect(problems).toEqual([{ path: path.join(specs, 'self.json'), code: 'ELOOP', kind: 'entry' }]);
    // Without the skip set the output folder's file is read like any other.
    expect(specFilesIn(specs).map((f) => path.relative(specs, f))).toEqual(['a.json', 'out/e.json', 'sub/b.yaml']);
  });

  it('is the same for discovery and the cache fingerprint', async () => {
    const { dir, specs } = loopingTree();
    const skip = [path.join(specs, 'out')];
    const found = await discoverInputs(['specs', 'specs/sub/notes.txt'], dir, skip);
    const fingerprinted = inputFiles([specs, path.join(specs, 'sub', 'notes.txt')], skip);
    expect(fingerprinted.sort()).toEqual(found.candidates.map((c) => c.abs).sort());
    expect(found.diagnostics.map((d) => [d.code, d.file, d.message])).toEqual([
      ['unreadable_file', 'specs/self.json', 'cannot read self.json (ELOOP)'],
    ]);
  });

  it('does not crash a command over a folder that loops: generate and audit report the one bad link', async () => {
    const dir = scratchProject(false);
    symlinkSync(path.join(dir, 'specs'), path.join(dir, 'specs', 'again'));
    const generate = await runCli(['generate', 'specs', '--out', 'generated'], dir);
    expect(generate.stderr).not.toMatch(/internal error|at walk/);
    expect(generate.code).toBe(0);
    const audit = await runCli(['audit', 'specs'], dir);
    expect(audit.stderr).not.toMatch(/internal error/);
    expect([0, 1]).toContain(audit.code);
    // A self-referencing link is an unreadable file with its path, not a crash.
    mkdirSync(path.join(dir, 'more'));
    writeFileSync(path.join(dir, 'more', 'api.json'), MINI_OPENAPI);
    symlinkSync(path.join(dir, 'more', 'x.json'), path.join(dir, 'more', 'x.json'));
    const bad = await runCli(['validate', 'more'], dir);
    expect(bad.stderr).toMatch(/unreadable_file/);
    expect(bad.stderr).toMatch(/more\/x\.json/);
    expect(bad.stderr).not.toMatch(/internal error/);
    expect(bad.code).toBe(2);
  });
});
