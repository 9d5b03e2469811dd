import { describe, expect, it } from 'vitest';
import {
  LAYERS,
  reachableFrom,
  readImportGraph,
  runtimeArrowsUp,
  runtimeByPath,
  runtimeEscapes,
  runtimeSourceOf,
  RUNTIME_PACKAGE,
  unitOf,
  wrongWayImports,
  type ImportEdge,
} from './import-graph.js';

describe('import direction of src/ and packages/runtime/src', () => {
  const edges = readImportGraph();

  it('reads the real graph (not an empty one that passes trivially)', () => {
    expect(edges.length).toBeGreaterThan(1000);
    expect(edges).toContainEqual({ from: 'classify/index.ts', to: 'ir/types.ts' });
    expect(edges).toContainEqual({ from: 'cli/commands/generate.ts', to: 'pipeline.ts' });
    // the runtime's own files, and the generator's imports of it by package name, resolved to its sources
    expect(edges).toContainEqual({ from: 'runtime/core/idempotency.ts', to: 'runtime/core/keys.ts' });
    expect(edges).toContainEqual({ from: 'serve/tools.ts', to: 'runtime/tools/index.ts', byPackageName: true });
    expect(edges).toContainEqual({
      from: 'emit/sql/tables.ts',
      to: 'runtime/store/sql/schema.ts',
      byPackageName: true,
    });
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

  it('keeps the runtime a leaf: it imports nothing outside packages/runtime/src, and itself only by relative paths', () => {
    expect(runtimeEscapes(edges)).toEqual([]);
  });

  it('has the generator reach the runtime only through @idemgen/runtime… (never a path into packages/runtime/src)', () => {
    expect(runtimeByPath(edges)).toEqual([]);
  });

  it("has no arrow up between the runtime's folders (core < store http < … < index support)", () => {
    expect(runtimeArrowsUp(edges)).toEqual([]);
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

  it('flags a runtime file importing the generator, the idemgen package or the runtime by its own name', () => {
    const edges: ImportEdge[] = [
      { from: 'runtime/store.ts', to: 'runtime/canonical-json.ts' },
      { from: 'runtime/tools/decode.ts', to: 'json-pointer/pointer.ts' },
      { from: 'runtime/tools/index.ts', to: 'runtime/core/keys.ts', byPackageName: true },
      { from: 'runtime/mcp/server.ts', to: 'idemgen', external: true },
      { from: 'runtime/mcp/server.ts', to: '@modelcontextprotocol/sdk', external: true },
    ];
    expect(runtimeEscapes(edges)).toEqual([
      'runtime/mcp/server.ts → idemgen',
      'runtime/tools/decode.ts → json-pointer/pointer.ts',
      'runtime/tools/index.ts → runtime/core/keys.ts (by package name)',
    ]);
  });

  it('flags the generator reaching into the runtime by a relative path, not by package name', () => {
    const edges: ImportEdge[] = [
      { from: 'serve/tools.ts', to: 'runtime/tools/index.ts', byPackageName: true },
      { from: 'emit/sql/tables.ts', to: 'runtime/store/sql/schema.ts' },
    ];
    expect(runtimeByPath(edges)).toEqual(['emit/sql/tables.ts → runtime/store/sql/schema.ts']);
  });

  it('flags an arrow up inside the runtime', () => {
    const edges: ImportEdge[] = [
      { from: 'runtime/store/memory.ts', to: 'runtime/core/corrupt.ts' },
      { from: 'runtime/core/reconcile.ts', to: 'runtime/store/corrupt.ts' },
    ];
    expect(runtimeArrowsUp(edges)).toEqual([
      'runtime/core/reconcile.ts → runtime/store/corrupt.ts (core may not import store)',
    ]);
  });

  it("resolves @idemgen/runtime specifiers through the package's export map to the sources", () => {
    const src = (p: string) => `${RUNTIME_PACKAGE}/src/${p}`.replaceAll('\\', '/');
    const of = (s: string) => runtimeSourceOf(s)?.replaceAll('\\', '/');
    expect(of('@idemgen/runtime')).toBe(src('index.ts'));
    expect(of('@idemgen/runtime/mcp')).toBe(src('mcp/server.ts'));
    expect(of('@idemgen/runtime/internal/core/keys.js')).toBe(src('core/keys.ts'));
    expect(of('@idemgen/runtime/internal/')).toBeUndefined();
    expect(of('@idemgen/runtime/nope')).toBeUndefined();
  });

  it('maps a file to its unit', () => {
    expect(unitOf('pipeline.ts')).toBe('pipeline');
    expect(unitOf('emit/client/file.ts')).toBe('emit');
    expect(unitOf('validate/swagger-parser-schema.d.ts')).toBe('validate');
  });
});
