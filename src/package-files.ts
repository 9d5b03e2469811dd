/**
 * Where idemgen's own files are, for the modules that read them (templates, package.json, the SQL emitter, the
 * code-mode worker). This module sits one folder below the package root: `dist/` when built, `src/` in the
 * repository (tsx, vitest). The CLI bundle (`dist/cli-bundle/`, scripts/bundle-cli.mjs) keeps this one module
 * outside its chunks, so these paths are computed from here and not from wherever a chunk was written.
 */

/** The package root: `package.json`, `templates/`, `dist/`. */
export const PACKAGE_ROOT = new URL('../', import.meta.url);

/** The folder of idemgen's modules as they were compiled, one file each: `dist/` (or `src/` from the sources). */
export const CODE_ROOT = new URL('./', import.meta.url);
