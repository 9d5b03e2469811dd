/**
 * Reads a live MCP server's complete tools/list with the official SDK client: stdio (spawned
 * without a shell) or Streamable HTTP. Every page is read (nextCursor) under one deadline; a server
 * that crashes, hangs, refuses or loops is a Diagnostic (exit 2), and its process is always closed.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { collectStderr } from './stderr-digest.js';

export type LiveTarget =
  | { kind: 'stdio'; label: string; command: string; args: string[]; cwd: string }
  | { kind: 'http'; label: string; url: URL; headers: Record<string, string> };

export interface LiveList {
  tools: unknown[];
  pages: number;
  server?: { name: string; version: string };
}

/** A server answering with more pages than this is looping on its cursor. */
const MAX_PAGES = 1000;

function transportFor(target: LiveTarget): { transport: Transport; stderr: () => string } {
  if (target.kind === 'http') {
    return {
      transport: new StreamableHTTPClientTransport(target.url, { requestInit: { headers: target.headers } }),
      stderr: () => '',
    };
  }
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  const t = new StdioClientTransport({
    command: target.command,
    args: target.args,
    env,
    stderr: 'pipe',
    cwd: target.cwd,
  });
  const collected = collectStderr();
  t.stderr?.on('data', (chunk: Buffer) => collected.add(chunk.toString()));
  return { transport: t, stderr: () => collected.digest() };
}

class Deadline extends Error {}

export async function listLiveTools(target: LiveTarget, timeoutMs: number, clientVersion: string): Promise<LiveList> {
  const { transport, stderr } = transportFor(target);
  const client = new Client({ name: 'idemgen-audit', version: clientVersion });
  const end = Date.now() + timeoutMs;
  const left = () => Math.max(1, end - Date.now());
  let timer: NodeJS.Timeout | undefined;
  // The SDK's per-request timeout does not cover a transport that never starts; this does.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Deadline(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  const work = (async () => {
    await client.connect(transport, { timeout: left() });
    const tools: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      if (++pages > MAX_PAGES) throw new Error(`more than ${MAX_PAGES} pages of tools/list (the cursor never ends)`);
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: left() });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined && cursor !== '');
    const info = client.getServerVersion();
    return { tools, pages, server: info ? { name: info.name, version: info.version } : undefined };
  })();
  work.catch(() => undefined);
  try {
    return await Promise.race([work, deadline]);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    const tail = stderr();
    throw new Error(tail ? `${why} (server stderr: ${tail})` : why);
  } finally {
    clearTimeout(timer);
    await Promise.race([client.close().catch(() => undefined), new Promise((r) => setTimeout(r, 5000).unref())]);
  }
}
