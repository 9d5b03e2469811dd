import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/** `@langchain/langgraph` is an optional peer: `@idemgen/runtime` and its langgraph entry load without it. */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

function runtimeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? runtimeFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

async function probe(hideLangGraph: boolean): Promise<Record<string, unknown>> {
  const hooks = hideLangGraph ? ['--import', './test/runtime/langgraph/support/no-langgraph.mjs'] : [];
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', ...hooks, 'test/runtime/langgraph/support/probe-without-langgraph.ts'],
    { cwd: root },
  );
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('@langchain/langgraph as an optional peer', () => {
  it('no file under packages/runtime/src imports @langchain/* statically (type-only imports aside)', () => {
    const offenders = runtimeFiles(join(root, 'packages/runtime/src')).filter((file) =>
      /^\s*(import|export)\s+(?!type\b)[^;]*?from\s+['"]@langchain\//m.test(readFileSync(file, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('loads, derives keys and runs with an explicit config when @langchain/* cannot be resolved', async () => {
    const hidden = await probe(true);
    expect(hidden.runtimeLoads).toBe(true);
    expect(hidden.key).toMatch(/^lg_[0-9a-f]{64}$/);
    expect(hidden.explicit).toMatchObject({ result: 42, wasReplay: false });
    expect(hidden.viaGetConfig).toMatch(/^KeySourceError: .*@langchain\/langgraph is not installed/);
    // Same probe with LangGraph present: same key; getConfig() is found but there is no node context.
    const present = await probe(false);
    expect(present.key).toBe(hidden.key);
    expect(present.viaGetConfig).toMatch(/no LangGraph config in this async context/);
  }, 60_000);
});
