/**
 * The import graph of the generator (`src/`) and of the runtime's sources (`packages/runtime/src`, read in as
 * the unit `runtime`: `runtime/<file>`), and the layer rule it must obey (docs/decisions/0102-layers.md,
 * 0221). The generator reaches the runtime through the package name (`@idemgen/runtime`, its subpaths and
 * `@idemgen/runtime/internal/*.js`); those imports are resolved through the runtime's export map to the
 * source file they load, so they are arrows of the graph like relative ones. Imports are read with
 * TypeScript's own pre-processor, so static imports, `export … from`, `import type` and dynamic `import()` all
 * count, and a string that merely looks like an import (inside a template) does not.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The generator's sources and the runtime package (its sources are `src/` under it). */
const SRC = fileURLToPath(new URL('../../src', import.meta.url));
export const RUNTIME_PACKAGE = fileURLToPath(new URL('../../packages/runtime', import.meta.url));
const RUNTIME_NAME = '@idemgen/runtime';

/** Low → high. A unit may import units of lower tiers only; units in one tier never import each other. */
export const LAYERS: readonly (readonly string[])[] = [
  ['runtime'],
  ['json-pointer', 'escape', 'timing', 'package-files', 'objects', 'regexps', 'paths', 'spec-files'],
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

/**
 * Inside the runtime (`runtime/…`), low → high: a folder imports only lower tiers. `core` (keys, the claim →
 * complete machine) must not need a store implementation or the HTTP caller; what generated clients, tools
 * and the MCP middleware share sits above them; the entry files on top.
 */
export const RUNTIME_LAYERS: readonly (readonly string[])[] = [
  ['core'],
  ['store', 'http'],
  ['saga', 'verify', 'langgraph', 'conformance'],
  ['client'],
  ['tools'],
  ['mcp'],
  ['index', 'support'],
];

/** Imports between the runtime's folders against `RUNTIME_LAYERS`, as `runtime/a → runtime/b (…)`. */
export function runtimeArrowsUp(edges: readonly ImportEdge[]): string[] {
  const inner = edges
    .filter((e) => !e.external && e.from.startsWith('runtime/') && e.to.startsWith('runtime/'))
    .map((e) => ({ from: e.from.slice('runtime/'.length), to: e.to.slice('runtime/'.length) }));
  return wrongWayImports(inner, RUNTIME_LAYERS).map((line) =>
    line.replace(/^(\S+) → (\S+)/, (_, a: string, b: string) => `runtime/${a} → runtime/${b}`),
  );
}

export interface ImportEdge {
  /**
   * Both paths relative to `src/` (a runtime file: `runtime/` + its path under packages/runtime/src), with `/`
   * separators; for an `external` edge `to` is the package name.
   */
  from: string;
  to: string;
  external?: boolean;
  /** The import names the runtime package (`@idemgen/runtime…`), resolved to the source file it loads. */
  byPackageName?: boolean;
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

/**
 * What keeps the runtime a leaf: it is published alone, so it imports nothing else of idemgen (not the
 * generator's files, not the `idemgen` package), and inside itself only by relative paths (never its own
 * package name, which the CommonJS copy and the source-mapped typecheck would each resolve differently).
 */
export function runtimeEscapes(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter((e) => unitOf(e.from) === 'runtime')
    .filter((e) => (e.external ? e.to === 'idemgen' : unitOf(e.to) !== 'runtime' || e.byPackageName === true))
    .map((e) => `${e.from} → ${e.to}${e.byPackageName ? ' (by package name)' : ''}`)
    .sort();
}

/** Generator files that reach into the runtime's sources by a relative path instead of `@idemgen/runtime…`. */
export function runtimeByPath(edges: readonly ImportEdge[]): string[] {
  return edges
    .filter((e) => !e.external && unitOf(e.from) !== 'runtime' && unitOf(e.to) === 'runtime' && !e.byPackageName)
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

/** `./x.js` → `x.ts` (or `x/index.ts`); `undefined` for a specifier that names no file. */
function resolveSpecifier(fromFile: string, specifier: string): string | undefined {
  const base = join(dirname(fromFile), specifier).replace(/\.js$/, '');
  for (const candidate of [`${base}.ts`, `${base}.d.ts`, join(base, 'index.ts')])
    if (existsSync(candidate)) return candidate;
  return undefined;
}

type ExportTarget = string | { import: { types: string } };

/**
 * `@idemgen/runtime/tools` → `<runtime>/src/tools/index.ts`, `@idemgen/runtime/internal/core/keys.js` →
 * `<runtime>/src/core/keys.ts`: the source of the declaration file the package's export map names.
 */
export function runtimeSourceOf(specifier: string, runtimePackage = RUNTIME_PACKAGE): string | undefined {
  const { exports } = JSON.parse(readFileSync(join(runtimePackage, 'package.json'), 'utf8')) as {
    exports: Record<string, ExportTarget>;
  };
  const subpath = `.${specifier.slice(RUNTIME_NAME.length)}`;
  for (const [key, target] of Object.entries(exports)) {
    if (typeof target === 'string') continue;
    const types = target.import.types.replace(/^\.\/dist\/esm\//, 'src/').replace(/\.d\.ts$/, '.ts');
    const star = key.indexOf('*');
    if (star < 0) {
      if (key === subpath) return join(runtimePackage, types);
      continue;
    }
    const head = key.slice(0, star);
    const tail = key.slice(star + 1);
    if (subpath.length > head.length + tail.length && subpath.startsWith(head) && subpath.endsWith(tail))
      return join(runtimePackage, types.replace('*', subpath.slice(head.length, subpath.length - tail.length)));
  }
  return undefined;
}

/**
 * Every import of every `src/**\/*.ts` and `packages/runtime/src/**\/*.ts`: relative ones, and the generator's
 * `@idemgen/runtime…` ones resolved to the runtime's sources. An import of a missing file (or an export the
 * package does not have) is an error, not a silent gap.
 */
export function readImportGraph(srcRoot: string = SRC, runtimePackage: string = RUNTIME_PACKAGE): ImportEdge[] {
  const runtimeRoot = join(runtimePackage, 'src');
  const inside = (root: string, p: string): string | undefined => {
    const r = relative(root, p);
    return r.startsWith('..') || isAbsolute(r) ? undefined : r.split(sep).join(posix.sep);
  };
  const name = (p: string): string => {
    const runtime = inside(runtimeRoot, p);
    if (runtime !== undefined) return `runtime/${runtime}`;
    const generator = inside(srcRoot, p);
    if (generator !== undefined) return generator;
    throw new Error(`${p}: outside src/ and packages/runtime/src`);
  };
  const edges: ImportEdge[] = [];
  for (const file of [...sourceFiles(srcRoot), ...sourceFiles(runtimeRoot)]) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of info.importedFiles) {
      if (fileName === RUNTIME_NAME || fileName.startsWith(`${RUNTIME_NAME}/`)) {
        const target = runtimeSourceOf(fileName, runtimePackage);
        if (target === undefined || !existsSync(target))
          throw new Error(
            `${name(file)}: "${fileName}" is no export of ${RUNTIME_NAME} (packages/runtime/package.json)`,
          );
        edges.push({ from: name(file), to: name(target), byPackageName: true });
        continue;
      }
      if (!fileName.startsWith('.')) {
        edges.push({ from: name(file), to: packageName(fileName), external: true });
        continue;
      }
      const target = resolveSpecifier(file, fileName);
      if (target === undefined) throw new Error(`${name(file)}: cannot resolve import "${fileName}"`);
      edges.push({ from: name(file), to: name(target) });
    }
  }
  return edges;
}
