/**
 * Write one generated client under `__out__/<dir>` with `@idemgen/runtime` (and `/support`) pointed at the runtime sources
 * (the compile tests' `paths` mapping, done by hand) and import it, so tests drive the emitted code itself.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { EmittedFile } from '../../../../src/emit/types.js';
import { OUT_ROOT } from './compile.js';

type Client = Record<string, (request: unknown, options?: unknown) => Promise<any>>;
export type ClientFactory = (options: Record<string, unknown>) => Client;

/** The runtime entries a generated file imports, pointed at the runtime sources relative to `dir`. */
export function withRuntimeSources(contents: string, dir: string): string {
  const to = (file: string) =>
    JSON.stringify(relative(dir, join(import.meta.dirname, '../../../../packages/runtime/src', file)));
  return contents
    .replaceAll(/"@idemgen\/runtime\/support"/g, to('support.js'))
    .replaceAll(/"@idemgen\/runtime"/g, to('index.js'));
}

export async function importClient(
  dir: string,
  files: EmittedFile[],
  path: string,
  factory: string,
): Promise<ClientFactory> {
  const base = join(OUT_ROOT, dir);
  mkdirSync(base, { recursive: true });
  const file = files.find((f) => f.path === path);
  if (file === undefined) throw new Error(`no ${path} among ${files.map((f) => f.path).join(', ')}`);
  const target = join(base, path.slice(path.lastIndexOf('/') + 1));
  writeFileSync(target, withRuntimeSources(file.contents, base));
  const mod = (await import(target)) as Record<string, ClientFactory>;
  return mod[factory]!;
}
