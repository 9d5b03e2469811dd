import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listFiles, stageOutput, writeOutputAtomically } from '../../src/cli/output-dir.js';

describe('the output stage refuses paths an emitter must never produce', () => {
  it.each([
    '../escape.txt',
    'client/../../escape.txt',
    '/tmp/abs.txt',
    'client\\x.ts',
    'client/CON.gen.ts',
    'tools/nul.json',
    'c:x',
    'a//b',
  ])('%j: internal error, nothing written anywhere', (path) => {
    const parent = mkdtempSync(join(tmpdir(), 'idemgen-paths-'));
    const out = join(parent, 'out');
    expect(() =>
      writeOutputAtomically(out, [
        { path: 'report/ok.md', contents: 'ok' },
        { path, contents: 'x' },
      ]),
    ).toThrow(/unsafe output path/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(parent)).toEqual([]);
  });

  it('two paths equal up to case are refused (one would overwrite the other on macOS and Windows)', () => {
    const parent = mkdtempSync(join(tmpdir(), 'idemgen-paths-'));
    const staging = stageOutput(join(parent, 'out'));
    staging.write({ path: 'client/Payments.gen.ts', contents: 'a' });
    expect(() => staging.file('client/payments.gen.ts')).toThrow(/differ only by case/);
    staging.abort();
    expect(readdirSync(parent)).toEqual([]);
  });

  it('ordinary paths are written', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'idemgen-paths-')), 'out');
    writeOutputAtomically(out, [
      { path: 'client/con_.gen.ts', contents: 'a' },
      { path: 'sql/sqlite/0001_x.up.sql', contents: 'b' },
    ]);
    expect(listFiles(out)).toEqual(['client/con_.gen.ts', 'sql/sqlite/0001_x.up.sql']);
  });

  it('the output folder and its files get the umask modes of any mkdir and file write (not mkdtemp 0700)', () => {
    const parent = mkdtempSync(join(tmpdir(), 'idemgen-modes-'));
    // What this process's umask gives a plain folder and file (0755 and 0644 under the usual 022).
    mkdirSync(join(parent, 'reference'));
    writeFileSync(join(parent, 'reference', 'file'), 'x');
    const mode = (p: string) => statSync(p).mode & 0o777;
    const out = join(parent, 'out');
    writeOutputAtomically(out, [{ path: 'client/x.gen.ts', contents: 'a' }]);
    expect(mode(out)).toBe(mode(join(parent, 'reference')));
    expect(mode(join(out, 'client'))).toBe(mode(join(parent, 'reference')));
    expect(mode(join(out, 'client', 'x.gen.ts'))).toBe(mode(join(parent, 'reference', 'file')));
    expect(mode(out)).not.toBe(0o700); // the test's umask (022 here) lets others read: it must show through
  });
});
