/**
 * The handlers + mcp artifacts of a spec, written under test/emit/mcp/__out__/<dir> the way a user's project
 * holds them, with `idemgen/runtime` and `idemgen/runtime/mcp` pointed at the sources (the compile tests'
 * `paths` mapping, done by hand so vitest and tsx resolve them too).
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
  return text
    .replaceAll('"idemgen/runtime/mcp"', to('src/runtime/mcp/server.js'))
    .replaceAll('"idemgen/runtime/tools"', to('src/runtime/tools/index.js'))
    .replaceAll('"idemgen/runtime/sqlite"', to('src/runtime/store/sqlite.js'))
    .replaceAll('"idemgen/runtime"', to('src/runtime/index.js'));
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
