import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  LAYERS,
  reachableFrom,
  readImportGraph,
  runtimeEscapes,
  unitOf,
  wrongWayImports,
  type ImportEdge,
} from './import-graph.js';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

describe('import direction of src/', () => {
  const edges = readImportGraph(SRC);

  it('reads the real graph (not an empty one that passes trivially)', () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual({ from: 'classify/index.ts', to: 'ir/types.ts' });
    expect(edges).toContainEqual({ from: 'cli/commands/generate.ts', to: 'pipeline.ts' });
  });

  it('places every unit of src/ in a layer', () => {
    const placed = new Set(LAYERS.flat());
    const units = [
      ...new Set(edges.flatMap((e) => (e.external ? [unitOf(e.from)] : [unitOf(e.from), unitOf(e.to)]))),
    ].sort();
    expect(units.filter((u) => !placed.has(u))).toEqual([]);
  });

  it('has no import from a lower layer to a higher one, nor between units of one layer', () => {
    expect(wrongWayImports(edges)).toEqual([]);
  });

  it('keeps the runtime a leaf: it imports nothing outside src/runtime', () => {
    expect(runtimeEscapes(edges)).toEqual([]);
  });

  it('keeps the library entry free of the CLI: index.ts reaches no cli/ file and not yargs', () => {
    const reached = [...reachableFrom(edges, 'index.ts')];
    expect(reached).toContain('pipeline.ts');
    expect(reached.filter((f) => f.startsWith('cli/') || f === 'yargs')).toEqual([]);
    // The CLI itself does load yargs, so the check above looks where yargs would show up.
    expect(reachableFrom(edges, 'cli/main.ts')).toContain('yargs');
  });
});

describe('the checker itself', () => {
  const layers = [['runtime'], ['json-pointer'], ['load', 'config'], ['ir'], ['index', 'cli']];

  it('accepts downward imports and imports inside one unit', () => {
    const ok: ImportEdge[] = [
      { from: 'ir/tools.ts', to: 'load/types.ts' },
      { from: 'load/bundle.ts', to: 'json-pointer/refs.ts' },
      { from: 'load/bundle.ts', to: 'load/source.ts' },
      { from: 'cli/main.ts', to: 'runtime/store.ts' },
    ];
    expect(wrongWayImports(ok, layers)).toEqual([]);
  });

  it('names each upward, sideways or unplaced import as file → file', () => {
    const bad: ImportEdge[] = [
      { from: 'load/detect.ts', to: 'ir/types.ts' },
      { from: 'config/types.ts', to: 'load/types.ts' },
      { from: 'index.ts', to: 'cli/main.ts' },
      { from: 'ir/tools.ts', to: 'extra/thing.ts' },
    ];
    expect(wrongWayImports(bad, layers)).toEqual([
      'config/types.ts → load/types.ts (config may not import load)',
      'index.ts → cli/main.ts (index may not import cli)',
      'ir/tools.ts → extra/thing.ts (unit extra has no layer)',
      'load/detect.ts → ir/types.ts (load may not import ir)',
    ]);
  });

  it('ignores package imports for direction, and follows files only for reachability', () => {
    const edges: ImportEdge[] = [
      { from: 'index.ts', to: 'pipeline.ts' },
      { from: 'pipeline.ts', to: 'yargs', external: true },
      { from: 'cli/main.ts', to: 'chalk', external: true },
    ];
    expect(wrongWayImports(edges, [['pipeline'], ['index', 'cli']])).toEqual([]);
    expect([...reachableFrom(edges, 'index.ts')].sort()).toEqual(['index.ts', 'pipeline.ts', 'yargs']);
  });

  it('flags a runtime file importing the generator', () => {
    const edges: ImportEdge[] = [
      { from: 'runtime/store.ts', to: 'runtime/canonical-json.ts' },
      { from: 'runtime/tools/decode.ts', to: 'json-pointer/pointer.ts' },
    ];
    expect(runtimeEscapes(edges)).toEqual(['runtime/tools/decode.ts → json-pointer/pointer.ts']);
  });

  it('maps a file to its unit', () => {
    expect(unitOf('pipeline.ts')).toBe('pipeline');
    expect(unitOf('emit/client/file.ts')).toBe('emit');
    expect(unitOf('validate/swagger-parser-schema.d.ts')).toBe('validate');
  });
});
