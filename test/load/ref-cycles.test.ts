import { describe, expect, it } from 'vitest';
import { loadInputs } from '../../src/load/index.js';
import { findRefCycles } from '../../src/load/ref-cycles.js';
import { makeTree } from './helpers.js';

const schemas = (s: Record<string, unknown>) => ({ components: { schemas: s } });

describe('findRefCycles', () => {
  it('finds a self-ref, a two-ref and a three-ref cycle once each, and ignores chains that reach a schema', () => {
    const root = schemas({
      Self: { $ref: '#/components/schemas/Self' },
      A: { $ref: '#/components/schemas/B' },
      B: { $ref: '#/components/schemas/A' },
      X: { $ref: '#/components/schemas/Y' },
      Y: { $ref: '#/components/schemas/Z' },
      Z: { $ref: '#/components/schemas/X' },
      IntoCycle: { $ref: '#/components/schemas/A' },
      Chain: { $ref: '#/components/schemas/Leaf' },
      Leaf: { type: 'object', properties: { next: { $ref: '#/components/schemas/Leaf' } } },
    });
    const refs = ['A', 'B', 'Self', 'X', 'IntoCycle', 'Chain', 'Leaf', 'Y'].map((n) => `#/components/schemas/${n}`);
    expect(findRefCycles(root, refs)).toEqual([
      ['/components/schemas/A', '/components/schemas/B'],
      ['/components/schemas/Self'],
      ['/components/schemas/X', '/components/schemas/Y', '/components/schemas/Z'],
    ]);
  });

  it('a recursive schema (a property that refs its parent) is not a cycle', () => {
    const root = schemas({ Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' } } } });
    expect(findRefCycles(root, ['#/components/schemas/Node'])).toEqual([]);
  });
});

describe('the loader reports a ref-only cycle once, at its first member', () => {
  it('also when the cycle runs through another file', async () => {
    const spec = [
      'openapi: 3.0.3',
      'info: {title: t, version: "1"}',
      'paths:',
      '  /a:',
      '    get:',
      '      responses:',
      '        "200":',
      '          description: ok',
      '          content:',
      '            application/json:',
      '              schema:',
      '                $ref: "#/components/schemas/Local"',
      'components:',
      '  schemas:',
      '    Local:',
      '      $ref: "./other.yaml#/Far"',
      '',
    ].join('\n');
    const cwd = makeTree({ 'api.yaml': spec, 'other.yaml': 'Far:\n  $ref: "./api.yaml#/components/schemas/Local"\n' });
    const { docs, diagnostics } = await loadInputs(['api.yaml'], { cwd });
    expect(docs).toHaveLength(1);
    expect(diagnostics.map((d) => [d.code, d.severity, d.file, d.pointer, d.line])).toEqual([
      ['ref_cycle', 'warning', 'api.yaml', '/components/schemas/Local/$ref', 16],
    ]);
  });
});
