#!/usr/bin/env node
/**
 * Structure facts of src/ and the runtime's sources, packages/runtime/src (`node scripts/structure.mjs [--json]
 * [--list]`), read with the TypeScript compiler (runtime files are named `runtime/…`):
 * (a) arrows up — imports against the layering: between top-level units, the tiers of
 *     test/architecture/import-graph.ts (`LAYERS`; the generator reaches the runtime through `@idemgen/runtime…`,
 *     resolved to the source it loads); the runtime importing the generator (or itself by package name); the
 *     generator reaching into packages/runtime/src by a relative path; inside the runtime, its tiers
 *     (`RUNTIME_LAYERS`). test/architecture fails on any of them;
 * (b) functions longer than 50 and than 100 lines, by name (a nested function counts on its own too);
 * (c) imports from one artifact folder of src/emit to another.
 * Numbers to compare before and after a refactor, not a gate: test/architecture holds the gates.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';
import ts from 'typescript';

register();
const {
  LAYERS,
  RUNTIME_LAYERS,
  RUNTIME_PACKAGE,
  readImportGraph,
  runtimeArrowsUp,
  runtimeByPath,
  runtimeEscapes,
  wrongWayImports,
} = await import('../test/architecture/import-graph.ts');
const { ARTIFACT_NAMES } = await import('../src/emit/registry.ts');

const SRC = fileURLToPath(new URL('../src', import.meta.url));
const RUNTIME_SRC = `${RUNTIME_PACKAGE}/src`;

function artifactCrossings(edges) {
  const folder = (file) => {
    const m = /^emit\/([^/]+)\//.exec(file);
    return m !== null && ARTIFACT_NAMES.includes(m[1]) ? m[1] : undefined;
  };
  return edges
    .filter((e) => !e.external && folder(e.from) !== undefined && folder(e.to) !== undefined)
    .filter((e) => folder(e.from) !== folder(e.to))
    .map((e) => `${e.from} → ${e.to}`)
    .sort();
}

/** A function's name as a reader would look it up: declared name, or the variable/property/method it is bound to. */
function nameOf(node) {
  if (node.name !== undefined) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
    parent.name
  )
    return parent.name.getText();
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText().replace(/\s+/g, '');
    return `(callback of ${callee.length > 40 ? `${callee.slice(0, 40)}…` : callee})`;
  }
  return '(anonymous)';
}

function isFunction(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  );
}

/** Every function of every file (src/ and the runtime's) with its length in lines (from its first token to its last). */
function functionLengths(files) {
  const out = [];
  for (const file of files) {
    const path = file.startsWith('runtime/') ? `${RUNTIME_SRC}/${file.slice('runtime/'.length)}` : `${SRC}/${file}`;
    const text = readFileSync(path, 'utf8');
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (isFunction(node) && node.body !== undefined) {
        const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
        out.push({ file, line: start + 1, name: nameOf(node), lines: end - start + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
}

const edges = readImportGraph(SRC);
const files = [...new Set(edges.map((e) => e.from))].sort();
const functions = functionLengths(files);
const facts = {
  files: files.length,
  imports: edges.filter((e) => !e.external).length,
  arrowsUp: {
    layers: wrongWayImports(edges, LAYERS),
    runtimeToGenerator: runtimeEscapes(edges),
    generatorToRuntimeByPath: runtimeByPath(edges),
    insideRuntime: runtimeArrowsUp(edges),
  },
  functions: {
    count: functions.length,
    over50: functions.filter((f) => f.lines > 50),
    over100: functions.filter((f) => f.lines > 100),
  },
  artifactCrossings: artifactCrossings(edges),
};

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(facts, null, 2));
} else {
  const list = process.argv.includes('--list');
  const up = facts.arrowsUp;
  const fn = (f) =>
    `    ${String(f.lines).padStart(4)}  ${f.name}  (${f.file.startsWith('runtime/') ? `packages/runtime/src/${f.file.slice(8)}` : `src/${f.file}`}:${f.line})`;
  const lines = [
    `src/ + packages/runtime/src: ${facts.files} files, ${facts.imports} imports between them, ${facts.functions.count} functions`,
    `(a) arrows up: ${up.layers.length + up.runtimeToGenerator.length + up.generatorToRuntimeByPath.length + up.insideRuntime.length}`,
    `  between layers of src/ (test/architecture/import-graph.ts): ${up.layers.length}`,
    ...up.layers.map((l) => `    ${l}`),
    `  runtime → generator: ${up.runtimeToGenerator.length}`,
    ...up.runtimeToGenerator.map((l) => `    ${l}`),
    `  generator → packages/runtime/src by a relative path (not @idemgen/runtime…): ${up.generatorToRuntimeByPath.length}`,
    ...up.generatorToRuntimeByPath.map((l) => `    ${l}`),
    `  inside packages/runtime/src (${RUNTIME_LAYERS.map((t) => t.join(' ')).join(' < ')}): ${up.insideRuntime.length}`,
    ...up.insideRuntime.map((l) => `    ${l}`),
    `(b) functions over 50 lines: ${facts.functions.over50.length}; over 100 lines: ${facts.functions.over100.length}`,
    ...(list ? facts.functions.over50 : facts.functions.over100).map(fn),
    `(c) imports between artifact folders of src/emit (${ARTIFACT_NAMES.join(', ')}): ${facts.artifactCrossings.length}`,
    ...facts.artifactCrossings.map((l) => `    ${l}`),
  ];
  console.log(lines.join('\n'));
}
