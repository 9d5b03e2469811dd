import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IR_CODES, LOAD_CODES, VALIDATE_CODES } from '../../src/diagnostics/codes.js';

/** Codes passed literally to diagnostic(...) / report(...) in a source folder. */
function emittedCodes(dir: string): Set<string> {
  const codes = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(path.join(dir, file), 'utf8');
    for (const m of text.matchAll(/(?:diagnostic|report)\(\s*'([a-z_]+)'/g)) codes.add(m[1]);
  }
  return codes;
}

describe('diagnostic code catalogue', () => {
  it('every code the load stage emits is catalogued', () => {
    const codes = emittedCodes('src/load');
    expect(codes.size).toBe(11);
    for (const code of codes) expect(Object.keys(LOAD_CODES), code).toContain(code);
  });

  it('every code the IR stage emits is catalogued', () => {
    const known = [...Object.keys(IR_CODES), ...Object.keys(LOAD_CODES)];
    const codes = emittedCodes('src/ir');
    // `unrecognized_input` is load's alone: the loader hands the IR a document it already recognized.
    expect([...codes].sort()).toEqual([
      'body_to_query',
      'duplicate_operation_id',
      'duplicate_tool_name',
      'invalid_document',
      'invalid_operation',
      'invalid_parameter',
      'invalid_path_item',
      'invalid_paths',
      'invalid_tool',
      'mixed_tool_formats',
      'operation_name_collision',
    ]);
    for (const code of codes) expect(known, code).toContain(code);
  });

  it('every code idemgen validate emits is catalogued', () => {
    const codes = new Set(
      [...emittedCodes('src/validate'), ...emittedCodes('src/cli/commands')].filter(
        (c) => c.startsWith('spec_') || c === 'no_openapi_input',
      ),
    );
    expect(codes.size).toBe(5);
    for (const code of codes) expect(Object.keys(VALIDATE_CODES), code).toContain(code);
  });
});
