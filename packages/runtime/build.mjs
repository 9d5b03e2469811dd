// Builds @idemgen/runtime from its own sources (./src): ESM + .d.ts with tsc (tsconfig.build.json), then a CommonJS
// copy for `require()` consumers — each file transpiled alone with TypeScript's own transpiler (the runtime is a
// leaf: relative imports only). The root `npm run build` runs this before it builds the generator, which
// imports the runtime through the package name and compiles against these declarations.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const src = join(here, 'src');
const require = createRequire(import.meta.url);
const ts = require('typescript');

rmSync(join(here, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(here, 'tsconfig.build.json')], {
  stdio: 'inherit',
});

/** Every file under `dir`, relative to it. */
const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)).map((f) => join(e.name, f)) : [e.name],
  );

// `import.meta.url` (createRequire for the optional pg / better-sqlite3 peers) has no CommonJS meaning; the
// module's own absolute path serves createRequire the same way (and needs no `require`, which may be shadowed).
const IMPORT_META_URL = /\bimport\.meta\.url\b/g;
const cjs = join(here, 'dist/cjs');
for (const file of walk(src).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))) {
  const { outputText, diagnostics } = ts.transpileModule(readFileSync(join(src, file), 'utf8'), {
    fileName: file,
    reportDiagnostics: true,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
      verbatimModuleSyntax: false,
    },
  });
  if (diagnostics?.length)
    throw new Error(`${file}: ${ts.flattenDiagnosticMessageText(diagnostics[0].messageText, '\n')}`);
  const out = join(cjs, file.replace(/\.ts$/, '.js'));
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, outputText.replace(IMPORT_META_URL, '__filename'));
}
// The declarations serve both builds; under dist/cjs they describe CommonJS modules (its package.json says so).
for (const file of walk(join(here, 'dist/esm')).filter((f) => f.endsWith('.d.ts'))) {
  cpSync(join(here, 'dist/esm', file), join(cjs, file));
}
writeFileSync(join(cjs, 'package.json'), '{ "type": "commonjs" }\n');
// Data files the runtime reads at run time (the conformance vectors) are not compiled: both builds get a copy.
for (const file of walk(src).filter((f) => f.endsWith('.json'))) {
  for (const out of [join(here, 'dist/esm', file), join(cjs, file)]) {
    mkdirSync(dirname(out), { recursive: true });
    cpSync(join(src, file), out);
  }
}

console.log(`@idemgen/runtime built: ${relative(process.cwd(), join(here, 'dist'))} (esm, cjs)`);
