/** The client emitter takes ts-morph's values from client/ts-morph.ts (require), so no run lexes ts-morph as ESM. */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = join(import.meta.dirname, '../../../src/emit/client');

describe('ts-morph in the client emitter', () => {
  it('is imported as types only, outside ts-morph.ts', () => {
    const valueImports = readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && f !== 'ts-morph.ts')
      .filter((f) => /^import\s+(?!type\b)[^;]*from\s+'ts-morph'/m.test(readFileSync(join(dir, f), 'utf8')));
    expect(valueImports).toEqual([]);
  });

  it('gives the printer what it needs', async () => {
    const { CodeBlockWriter, StructureKind, printStructure } = await import('../../../src/emit/client/ts-morph.js');
    const text = printStructure(
      { kind: StructureKind.TypeAlias, name: 'A', type: 'string' },
      { indentNumberOfSpaces: 2 },
    );
    expect(text).toBe('type A = string;');
    expect(new CodeBlockWriter().write('x').toString()).toBe('x');
  });
});
