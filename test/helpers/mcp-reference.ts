/**
 * Real MCP tool lists without the shared corpus: the reference servers installed from npm
 * (`@modelcontextprotocol/server-{filesystem,memory,everything}`) are started over stdio with the SDK
 * client and asked for `tools/list`, so the lists are exactly what a user's agent would see from the
 * pinned versions in package-lock.json.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export const REFERENCE_SERVERS = ['filesystem', 'memory', 'everything'] as const;
export type ReferenceServer = (typeof REFERENCE_SERVERS)[number];

const require = createRequire(import.meta.url);

/** Arguments each server needs to start: filesystem serves one (empty) allowed folder; memory a scratch file. */
function argsFor(name: ReferenceServer, scratch: string): { args: string[]; env: Record<string, string> } {
  if (name === 'filesystem') return { args: [scratch], env: {} };
  if (name === 'memory') return { args: [], env: { MEMORY_FILE_PATH: join(scratch, 'memory.jsonl') } };
  return { args: ['stdio'], env: {} };
}

/** The server's `tools/list` answer (every page), as the `{ tools: [...] }` document idemgen loads. */
async function listReferenceTools(name: ReferenceServer): Promise<{ tools: Record<string, unknown>[] }> {
  const scratch = mkdtempSync(join(tmpdir(), `idemgen-mcp-${name}-`));
  const entry = require.resolve(`@modelcontextprotocol/server-${name}/dist/index.js`);
  const { args, env } = argsFor(name, scratch);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [entry, ...args],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'idemgen-test', version: '0.0.0' });
  await client.connect(transport);
  try {
    const tools: Record<string, unknown>[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...(page.tools as Record<string, unknown>[]));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return { tools };
  } finally {
    await client.close();
  }
}

/** Writes the listed tools to `<dir>/mcp-<name>.tools.json` and returns the path. */
export async function referenceToolsFile(
  name: ReferenceServer,
  dir = mkdtempSync(join(tmpdir(), 'idemgen-mcp-tools-')),
): Promise<string> {
  const file = join(dir, `mcp-${name}.tools.json`);
  writeFileSync(file, `${JSON.stringify(await listReferenceTools(name), null, 2)}\n`);
  return file;
}
