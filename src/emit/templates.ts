/**
 * The Handlebars templates the package ships in `templates/` (the SQL migrations, `audit.md`), compiled with
 * the options `templates/options.json` gives their folder. A built package renders them from the specs
 * `npm run build` precompiled (`precompiledModule`, written by scripts/precompile-templates.mjs to
 * `dist/emit/templates.precompiled.cjs`) with Handlebars' runtime alone: loading the compiler and compiling
 * the templates was ~0.1 s of every `generate`. From the sources (vitest, tsx), where that file is not, or for
 * a template the build did not see, they are compiled on first use. Either way a template is the same function
 * of its context.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type Handlebars from 'handlebars';
// Imported, not required: the CLI bundle (scripts/bundle-cli.mjs) then holds the runtime as one chunk instead
// of Node loading its 21 CommonJS files on every `generate` (~13 → ~4 ms, decision 0230).
import handlebarsRuntime from 'handlebars/runtime.js';
import { CODE_ROOT, PACKAGE_ROOT } from '../package-files.js';

const TEMPLATE_ROOT = new URL('templates/', PACKAGE_ROOT);
/** Beside the built module; a path, not a specifier: nothing is there in the sources. */
const PRECOMPILED = fileURLToPath(new URL('emit/templates.precompiled.cjs', CODE_ROOT));

type Spec = Parameters<typeof Handlebars.template>[0];
type CompileOptions = NonNullable<Parameters<typeof Handlebars.compile>[1]>;

const require = createRequire(import.meta.url);

/** Template path (under `templates/`) → its precompiled spec; undefined when running from the sources. */
function precompiled(): Record<string, Spec> | undefined {
  try {
    return require(PRECOMPILED) as Record<string, Spec>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined;
    throw err;
  }
}

/** The compile options of the template at `path`: those of its folder in `templates/options.json`. */
function optionsOf(path: string): CompileOptions {
  const table = JSON.parse(readFileSync(new URL('options.json', TEMPLATE_ROOT), 'utf8')) as Record<string, unknown>;
  const folder = Object.keys(table).find((prefix) => prefix.endsWith('/') && path.startsWith(prefix));
  if (folder === undefined) throw new Error(`templates/options.json has no entry for ${path}`);
  return table[folder] as CompileOptions;
}

/** Every template under `templates/`, as the paths `template` takes (`sql/postgres/file.sql.hbs`), sorted. */
export function shippedTemplates(): string[] {
  const dir = fileURLToPath(TEMPLATE_ROOT);
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.hbs'))
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/** Handlebars' own compiler, in an isolated environment (loaded only when something is compiled). */
function compilerEnv(): typeof Handlebars {
  compiler ??= (require('handlebars') as typeof Handlebars).create();
  return compiler;
}

/**
 * The CommonJS module the build writes beside this one: every shipped template's precompiled spec (Handlebars'
 * precompiled form is JavaScript source, an object literal with the template's functions) by its path.
 */
export function precompiledModule(): string {
  const entries = shippedTemplates().map(
    (path) =>
      `  ${JSON.stringify(path)}: ${compilerEnv().precompile(readFileSync(new URL(path, TEMPLATE_ROOT), 'utf8'), optionsOf(path))},`,
  );
  return `// Generated from templates/ at build time (scripts/precompile-templates.mjs). Do not edit.\n'use strict';\nmodule.exports = {\n${entries.join('\n')}\n};\n`;
}

let specs: Record<string, Spec> | undefined | null = null;
// Isolated environments: no helpers or partials registered by anyone else can change our output.
let runtime: typeof Handlebars | undefined;
let compiler: typeof Handlebars | undefined;
const cache = new Map<string, Handlebars.TemplateDelegate>();

/** The template at `path` under `templates/` (`sql/postgres/file.sql.hbs`), made once per process. */
export function template(path: string): Handlebars.TemplateDelegate {
  let made = cache.get(path);
  if (made !== undefined) return made;
  if (specs === null) specs = precompiled();
  const spec = specs?.[path];
  if (spec !== undefined) {
    runtime ??= (handlebarsRuntime as unknown as typeof Handlebars).create();
    made = runtime.template(spec);
  } else {
    made = compilerEnv().compile(readFileSync(new URL(path, TEMPLATE_ROOT), 'utf8'), optionsOf(path));
  }
  cache.set(path, made);
  return made;
}
