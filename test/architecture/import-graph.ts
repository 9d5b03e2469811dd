/**
 * The import graph of `src/` and the layer rule it must obey (docs/decisions/0102-layers.md). Imports are read
 * with TypeScript's own pre-processor, so static imports, `export … from`, `import type` and dynamic
 * `import()` all count, and a string that merely looks like an import (inside a template) does not.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import ts from 'typescript';

/** Low → high. A unit may import units of lower tiers only; units in one tier never import each other. */
export const LAYERS: readonly (readonly string[])[] = [
  ['runtime'],
  ['json-pointer', 'escape', 'timing'],
  ['diagnostics'],
  ['load', 'config'],
  ['ir', 'cache'],
  ['classify'],
  ['validate', 'traces', 'audit-code'],
  ['audit-mcp'],
  ['analyze'],
  ['emit'],
  ['serve', 'pipeline'],
  ['index', 'cli'],
];

export interface ImportEdge {
  /** Both paths relative to `src/`, with `/` separators; for an `external` edge `to` is the package name. */
  from: string;
  to: string;
  external?: boolean;
}

/** The unit a file belongs to: its top-level folder under `src/`, or the file's name for `src/x.ts`. */
export function unitOf(file: string): string {
  const [head, ...rest] = file.split('/');
  return rest.length === 0 ? head!.replace(/\.(d\.)?ts$/, '') : head!;
}

function tierIndex(layers: readonly (readonly string[])[]): Map<string, number> {
  return new Map(layers.flatMap((tier, i) => tier.map((unit) => [unit, i] as [string, number])));
}

/** Every edge that points sideways or up (or touches a unit the layer list does not place), as `from → to`. */
export function wrongWayImports(
  edges: readonly ImportEdge[],
  layers: readonly (readonly string[])[] = LAYERS,
): string[] {
  const tier = tierIndex(layers);
  const out: string[] = [];
  for (const { from, to, external } of edges) {
    if (external) continue;
    const a = unitOf(from);
    const b = unitOf(to);
    if (a === b) continue;
    const ta = tier.get(a);
    const tb = tier.get(b);
    if (ta === undefined || tb === undefined)
      out.push(`${from} → ${to} (unit ${ta === undefined ? a : b} has no layer)`);
    else if (ta <= tb) out.push(`${from} → ${to} (${a} may not import ${b})`);
  }
  return out.sort();
}

/** Edges leaving `src/runtime`: the runtime is published alone, so it must import nothing else of idemgen. */
export function runtimeEscapes(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter((e) => !e.external && unitOf(e.from) === 'runtime' && unitOf(e.to) !== 'runtime')
    .map((e) => `${e.from} → ${e.to}`)
    .sort();
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** `node:fs` → `node:fs`, `@scope/pkg/sub` → `@scope/pkg`, `pkg/sub` → `pkg`. */
function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Every file (and package) `start` loads, directly or through other files of `src/`. */
export function reachableFrom(edges: readonly ImportEdge[], start: string): Set<string> {
  const seen = new Set<string>([start]);
  const stack = [start];
  while (stack.length > 0) {
    const file = stack.pop()!;
    for (const e of edges) {
      if (e.from !== file || seen.has(e.to)) continue;
      seen.add(e.to);
      if (!e.external) stack.push(e.to);
    }
  }
  return seen;
}

/** `./x.js` → `x.ts` (or `x/index.ts`); `undefined` for a specifier that names no file under `src/`. */
function resolveSpecifier(fromFile: string, specifier: string): string | undefined {
  const base = join(dirname(fromFile), specifier).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, `${base}.d.ts`, join(base, 'index.ts')])
    if (existsSync(candidate)) return candidate;
  return undefined;
}

/** Every relative import of every `src/**\/*.ts`; an import of a missing file is an error, not a silent gap. */
export function readImportGraph(srcRoot: string): ImportEdge[] {
  const rel = (p: string): string => relative(srcRoot, p).split(sep).join(posix.sep);
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(srcRoot)) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) {
        edges.push({ from: rel(file), to: packageName(fileName), external: true });
        continue;
      }
      const target = resolveSpecifier(file, fileName);
      if (target === undefined) throw new Error(`${rel(file)}: cannot resolve import "${fileName}"`);
      edges.push({ from: rel(file), to: rel(target) });
    }
  }
  return edges;
}
