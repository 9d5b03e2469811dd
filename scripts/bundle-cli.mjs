#!/usr/bin/env node
// Part of `npm run build`, after tsc: bundles the CLI (dist/cli/main.js and every module it imports, statically
// or through the commands' dynamic imports) into dist/cli-bundle/, which bin/idemgen.js loads. Node then resolves,
// reads and links a handful of chunks instead of some 220 ES modules per command: every command starts sooner
// (decision 0226). What stays outside the chunks:
// - packages (`@idemgen/runtime`, yargs, the optional drivers): imported from node_modules as before, so the
//   generated code and the CLI share one runtime; except Handlebars' runtime, 21 small CommonJS files that every
//   `generate` loads and nothing else shares (bundled, ~4 ms instead of ~13: decision 0230);
// - dist/package-files.js, the module that says where templates/, package.json and the compiled modules are
//   (its `import.meta.url` must be its own file, not a chunk's).
// The rest of dist/ is unchanged: the library (`idemgen`'s exports) is not bundled.
import { rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { build } from 'esbuild';

const root = resolve(import.meta.dirname, '..');
const outdir = join(root, 'dist/cli-bundle');
rmSync(outdir, { recursive: true, force: true });

/**
 * Every import of package-files.js, from any depth, as the one file beside the chunks' folder; every bare
 * specifier (a package, `node:…`) as it is written, Handlebars' runtime excepted. esbuild's own
 * `packages: 'external'` is not enough: it applies the repository's tsconfig `paths` first, and inlined the
 * runtime's sources (a second copy of the runtime inside the CLI, beside the package the generated code imports).
 */
const outside = {
  name: 'outside-the-chunks',
  setup(b) {
    b.onResolve({ filter: /(^|\/)package-files\.js$/ }, () => ({ path: '../package-files.js', external: true }));
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path === 'handlebars/runtime.js' ? undefined : { path: args.path, external: true },
    );
  },
};

const result = await build({
  entryPoints: [join(root, 'dist/cli/main.js')],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  plugins: [outside],
  // Readable chunks: an internal error's stack trace names functions and lines a maintainer can follow.
  minify: false,
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
const chunks = Object.keys(result.metafile.outputs).length;
console.log(`bundled the CLI → ${relative(root, outdir)}/ (${chunks} files)`);
