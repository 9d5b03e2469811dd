/**
 * The handlers + mcp artifacts of a spec, written under test/emit/mcp/__out__/<dir> the way a user's project
 * holds them, with `@idemgen/runtime` and its subpaths pointed at the sources (the compile tests' `paths`
 * mapping, done by hand so tsx resolves them too in the child processes that run them).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { resolveConfig, type UserConfig } from '../../../src/config/types.js';
import { runPipeline } from '../../../src/pipeline.js';
import { ROOT } from '../../helpers/cli.js';

const MCP_OUT = join(ROOT, 'test/emit/mcp/__out__');

export function pointAtSources(text: string, file: string): string {
  const to = (target: string) => {
    const rel = relative(dirname(file), join(ROOT, target));
    return JSON.stringify(rel.startsWith('.') ? rel : `./${rel}`);
  };
  const sources: Record<string, string> = {
    '': 'index.js',
    '/mcp': 'mcp/server.js',
    '/tools': 'tools/index.js',
    '/sqlite': 'store/sqlite.js',
  };
  return text.replaceAll(/(["'])@idemgen\/runtime(\/[a-z]+)?\1/g, (whole, _quote: string, sub: string | undefined) =>
    sources[sub ?? ''] === undefined ? whole : to(`packages/runtime/src/${sources[sub ?? '']}`),
  );
}

/** Returns the written files by their artifact path (`mcp/notes.server.gen.ts` → absolute path) and the raw texts. */
export async function generateModules(
  dir: string,
  specName: string,
  spec: unknown,
  user: Omit<UserConfig, 'artifacts'> = {},
): Promise<{ base: string; paths: Map<string, string>; texts: Map<string, string> }> {
  const base = join(MCP_OUT, dir);
  rmSync(base, { recursive: true, force: true });
  mkdirSync(join(base, 'specs'), { recursive: true });
  writeFileSync(join(base, 'package.json'), '{ "type": "module" }\n');
  const specFile = join(base, 'specs', specName);
  writeFileSync(specFile, JSON.stringify(spec, null, 2));
  const config = { ...resolveConfig({ ...user, artifacts: ['handlers', 'mcp'] }), artifacts: ['handlers', 'mcp'] };
  const result = await runPipeline([specFile], config, base);
  const paths = new Map<string, string>();
  const texts = new Map<string, string>();
  for (const f of result.files) {
    const p = join(base, f.path);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, f.path.endsWith('.ts') ? pointAtSources(f.contents, p) : f.contents);
    paths.set(f.path, p);
    texts.set(f.path, f.contents);
  }
  return { base, paths, texts };
}
