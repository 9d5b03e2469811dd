/** Finds and reads idemgen.config.{json,yaml,yml,js,mjs,ts}; validates it into a ResolvedConfig. */
import { existsSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, diagnostic } from '../diagnostics/diagnostic.js';
import { resolveConfig, type ResolvedConfig, type UserConfig } from './types.js';
import { validateUserConfig, type ConfigExtensions } from './validate.js';

const CONFIG_FILE_NAMES = [
  'idemgen.config.json',
  'idemgen.config.yaml',
  'idemgen.config.yml',
  'idemgen.config.js',
  'idemgen.config.mjs',
  'idemgen.config.ts',
] as const;

export function findConfigFile(cwd: string): string | undefined {
  for (const name of CONFIG_FILE_NAMES) {
    const candidate = join(cwd, name);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

function fail(file: string, message: string, hint?: string): never {
  throw new ConfigError([diagnostic('invalid_config', 'error', message, { file, pointer: '', hint })]);
}

async function importModule(file: string): Promise<unknown> {
  if (!file.endsWith('.ts')) return import(pathToFileURL(file).href);
  // A TypeScript config is transpiled next to itself (so relative imports keep working), imported, removed.
  const { ts } = await import('ts-morph');
  const out = ts.transpileModule(readFileSync(file, 'utf8'), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    fileName: file,
  });
  const tmp = join(dirname(file), `.${basename(file, '.ts')}.${process.pid}.mjs`);
  writeFileSync(tmp, out.outputText);
  try {
    return await import(pathToFileURL(tmp).href);
  } finally {
    rmSync(tmp, { force: true });
  }
}

async function readUserConfig(file: string): Promise<unknown> {
  if (!existsSync(file)) fail(file, `Config file not found: ${file}`);
  if (/\.(json|ya?ml)$/.test(file)) {
    const text = readFileSync(file, 'utf8');
    try {
      return file.endsWith('.json') ? JSON.parse(text) : (await import('yaml')).parse(text);
    } catch (err) {
      fail(file, `Cannot parse ${basename(file)}: ${(err as Error).message}`);
    }
  }
  try {
    const mod = (await importModule(file)) as { default?: unknown };
    return mod.default ?? mod;
  } catch (err) {
    fail(file, `Cannot load ${basename(file)}: ${(err as Error).message}`);
  }
}

/** Paths in a config file are relative to the file; paths on the command line to cwd. */
export async function loadConfig(options: {
  cwd: string;
  configFile?: string;
  extensions?: ConfigExtensions;
}): Promise<ResolvedConfig> {
  const file = options.configFile ? resolve(options.cwd, options.configFile) : findConfigFile(options.cwd);
  if (!file) return resolveConfig({});
  const raw = await readUserConfig(file);
  const diagnostics = validateUserConfig(raw, file, options.extensions);
  if (diagnostics.length > 0) throw new ConfigError(diagnostics);
  const user = raw as UserConfig;
  const base = dirname(file);
  const sectionNames = Object.keys(options.extensions?.sections ?? {});
  const record = raw as Record<string, unknown>;
  const sections = Object.fromEntries(sectionNames.filter((k) => record[k] !== undefined).map((k) => [k, record[k]]));
  const resolved = resolveConfig(user, file, sections);
  if (user.inputs) {
    resolved.inputs = resolved.inputs.map((p) => resolve(base, p));
    resolved.apiNames = Object.fromEntries(
      Object.entries(resolved.apiNames).map(([p, name]) => [resolve(base, p), name]),
    );
  }
  if (user.out) resolved.out = resolve(base, user.out);
  return resolved;
}
