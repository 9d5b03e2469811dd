/**
 * Type-check generated clients the way a user's project would: `--strict --noUnusedLocals`, ESM NodeNext,
 * `@idemgen/runtime` mapped to the runtime sources. Many files share one Program, so the runtime and the
 * lib files are checked once per batch instead of once per spec.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../../../..');
export const OUT_ROOT = join(ROOT, 'test/emit/client/__out__');

export function compilerOptions(): ts.CompilerOptions {
  return {
    strict: true,
    noEmit: true,
    noUnusedLocals: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules/@types')],
    baseUrl: ROOT,
    paths: {
      '@idemgen/runtime': ['packages/runtime/src/index.ts'],
      '@idemgen/runtime/support': ['packages/runtime/src/support.ts'],
      '@idemgen/runtime/tools': ['packages/runtime/src/tools/index.ts'],
      '@idemgen/runtime/mcp': ['packages/runtime/src/mcp/server.ts'],
      '@idemgen/runtime/ai-sdk': ['packages/runtime/src/tools/adapters/ai-sdk.ts'],
      '@idemgen/runtime/openai': ['packages/runtime/src/tools/adapters/openai.ts'],
      '@idemgen/runtime/openai-agents': ['packages/runtime/src/tools/adapters/openai-agents.ts'],
      '@idemgen/runtime/langgraph': ['packages/runtime/src/langgraph/index.ts'],
      '@idemgen/runtime/sqlite': ['packages/runtime/src/store/sqlite.ts'],
      '@idemgen/runtime/postgres': ['packages/runtime/src/store/postgres.ts'],
      '@idemgen/runtime/mysql': ['packages/runtime/src/store/mysql.ts'],
      '@idemgen/runtime/redis': ['packages/runtime/src/store/redis/store.ts'],
    },
  };
}

/** Writes `files` (name → text) under `__out__/<dir>` with an ESM package.json; returns the absolute paths. */
export function writeBatch(dir: string, files: Map<string, string>): Map<string, string> {
  const base = join(OUT_ROOT, dir);
  rmSync(base, { recursive: true, force: true });
  mkdirSync(base, { recursive: true });
  writeFileSync(join(base, 'package.json'), '{ "type": "module" }\n');
  const paths = new Map<string, string>();
  for (const [name, text] of files) {
    const p = join(base, name);
    writeFileSync(p, text);
    paths.set(name, p);
  }
  return paths;
}

/** Diagnostics per generated file (runtime sources are checked by their own tests and not reported here). */
export function typeCheck(paths: Map<string, string>): Map<string, string[]> {
  const program = ts.createProgram([...paths.values()], compilerOptions());
  const byFile = new Map<string, string[]>([...paths.keys()].map((k) => [k, []]));
  const nameOf = new Map([...paths].map(([k, v]) => [resolve(v), k]));
  const all = [
    ...program.getOptionsDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...program.getSemanticDiagnostics(),
  ];
  for (const d of all) {
    const name = d.file ? nameOf.get(resolve(d.file.fileName)) : undefined;
    const text = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    const where = d.file && d.start !== undefined ? `${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : '';
    if (name !== undefined) byFile.get(name)!.push(`${where}TS${d.code} ${text}`);
    else if (d.file === undefined || !d.file.fileName.includes('/packages/runtime/src/')) {
      for (const list of byFile.values()) list.push(`global: TS${d.code} ${text}`);
    }
  }
  return byFile;
}
