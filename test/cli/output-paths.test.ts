import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
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
});
