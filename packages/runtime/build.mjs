// Builds @idemgen/runtime from ../../src/runtime: ESM + .d.ts with tsc (tsconfig.json), then a CommonJS copy
// for `require()` consumers — each file transpiled alone with TypeScript's own transpiler (the runtime is a
// leaf: relative imports only), and the READMEs the top README links to.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const src = join(here, '../../src/runtime');
const require = createRequire(import.meta.url);
const ts = require('typescript');

rmSync(join(here, 'dist'), { recursive: true, force: true });
// `--esm-from dist/runtime`: the repository's own build already compiled these sources with the same
// options (tsconfig.build.json), so `npm run build` copies them instead of compiling twice.
const from = process.argv.indexOf('--esm-from');
if (from > 0) cpSync(process.argv[from + 1], join(here, 'dist/esm'), { recursive: true });
else
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(here, 'tsconfig.json')], {
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

cpSync(join(src, 'README.md'), join(here, 'README.md'));
mkdirSync(join(here, 'langgraph'), { recursive: true });
cpSync(join(src, 'langgraph/README.md'), join(here, 'langgraph/README.md'));
console.log(`@idemgen/runtime built: ${relative(process.cwd(), join(here, 'dist'))} (esm, cjs)`);
