/**
 * Routes `idemgen audit` inputs: code files (.ts/.tsx/.js/.mjs …) and tsconfig files go to the code
 * audit, spec files and tool lists to the spec loader. A folder goes to both: its code files
 * (node_modules and dot-folders skipped) to the code audit, the folder itself to the loader when it
 * holds JSON or YAML; a folder with neither is an input error. Globs are expanded here for both
 * kinds; a tsconfig is recognised by its name or by its content.
 */
import { type Dirent, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { ts } from 'ts-morph';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { displayPath } from '../load/discover.js';
import { CODE_EXTENSIONS } from './project.js';

export interface RoutedInputs {
  specs: string[];
  code: string[];
  diagnostics: Diagnostic[];
}

const GLOB_CHARS = /[*?[\]{}]/;

function isTsconfig(abs: string): boolean {
  if (!abs.toLowerCase().endsWith('.json')) return false;
  if (/^tsconfig.*\.json$/i.test(path.basename(abs))) return true;
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch {
    return false;
  }
  // tsconfig files are JSONC; the TypeScript parser reads comments and trailing commas.
  const parsed = ts.parseConfigFileTextToJson(abs, text).config as Record<string, unknown> | undefined;
  if (!parsed || typeof parsed !== 'object' || 'openapi' in parsed || 'swagger' in parsed || 'tools' in parsed)
    return false;
  return 'compilerOptions' in parsed || ('extends' in parsed && ('include' in parsed || 'files' in parsed));
}

function walk(dir: string, out: string[], allowNodeModules: boolean): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    if (e.name.startsWith('.') || (!allowNodeModules && e.name === 'node_modules')) continue;
    const abs = path.join(dir, e.name);
    if (e.isDirectory()) walk(abs, out, allowNodeModules);
    else if (e.isFile()) out.push(abs);
  }
}

/** Files matching a glob; node_modules is only entered when the glob's base already is inside it. */
export function expandGlob(pattern: string): string[] {
  const posix = pattern.split(path.sep).join('/');
  const { base, glob } = picomatch.scan(posix);
  const root = base === '' ? '.' : base;
  if (!existsSync(root)) return [];
  const match = picomatch(glob, { dot: false });
  const files: string[] = [];
  walk(root, files, root.split('/').includes('node_modules') || glob.includes('node_modules'));
  return files.filter((f) => match(path.relative(root, f).split(path.sep).join('/'))).sort();
}

function tsconfigFiles(abs: string, cwd: string, diagnostics: Diagnostic[]): string[] {
  const read = ts.readConfigFile(abs, ts.sys.readFile);
  const file = displayPath(abs, cwd);
  if (read.error) {
    diagnostics.push(
      diagnostic(
        'invalid_tsconfig',
        'error',
        `${file}: ${ts.flattenDiagnosticMessageText(read.error.messageText, '\n')}`,
        { file },
      ),
    );
    return [];
  }
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, path.dirname(abs), undefined, abs);
  for (const e of parsed.errors.filter((x) => x.category === ts.DiagnosticCategory.Error && x.code !== 18003)) {
    diagnostics.push(
      diagnostic('invalid_tsconfig', 'error', `${file}: ${ts.flattenDiagnosticMessageText(e.messageText, '\n')}`, {
        file,
      }),
    );
  }
  return parsed.fileNames.filter(
    (f) => CODE_EXTENSIONS.test(f) && !/\.d\.[cm]?ts$/i.test(f) && !f.split(/[\\/]/).includes('node_modules'),
  );
}

const SPEC_LIKE = /\.(json|ya?ml)$/i;

function isCode(file: string): boolean {
  return CODE_EXTENSIONS.test(file) && !/\.d\.[cm]?ts$/i.test(file);
}

export function routeInputs(inputs: readonly string[], cwd: string): RoutedInputs {
  const specs: string[] = [];
  const code = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  const place = (abs: string): void => {
    if (isCode(abs)) code.add(abs);
    else if (isTsconfig(abs)) for (const f of tsconfigFiles(abs, cwd, diagnostics)) code.add(path.resolve(f));
    else specs.push(abs);
  };
  for (const input of inputs) {
    const abs = path.resolve(cwd, input);
    if (!existsSync(abs) && GLOB_CHARS.test(input)) {
      const matched = expandGlob(abs);
      if (matched.length === 0)
        diagnostics.push(
          diagnostic('input_not_found', 'error', `no file matches ${input}`, { file: displayPath(abs, cwd) }),
        );
      for (const f of matched) place(f);
    } else if (existsSync(abs) && statSync(abs).isFile()) place(abs);
    else if (existsSync(abs) && statSync(abs).isDirectory()) {
      // A folder: its code goes to the code audit, its JSON/YAML to the spec loader (which scans it
      // again and skips what is neither spec nor tool list); with neither, nothing would be audited.
      const files: string[] = [];
      walk(abs, files, false);
      const found = files.filter(isCode);
      for (const f of found) code.add(f);
      const specLike = files.some((f) => SPEC_LIKE.test(f));
      if (specLike) specs.push(abs);
      // No file: the CLI prints a file-less problem as one line, like every command's no_input_document.
      if (found.length === 0 && !specLike)
        diagnostics.push(
          diagnostic(
            'unrecognized_input',
            'error',
            `${displayPath(abs, cwd)}/ holds nothing to audit: expected agent code (.ts, .tsx, .mts, .cts, .js, .jsx, .mjs, .cjs) or specs and tool lists (.json, .yaml, .yml)`,
          ),
        );
    } else specs.push(abs);
  }
  return { specs, code: [...code].sort(), diagnostics };
}
