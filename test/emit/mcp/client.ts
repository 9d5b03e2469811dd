/** MCP SDK clients for the end-to-end tests: stdio (a child process) and Streamable HTTP. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ROOT } from '../../helpers/cli.js';

export async function stdioClient(args: string[], env: Record<string, string> = {}): Promise<Client> {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (typeof v === 'string') childEnv[k] = v;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', ...args],
    cwd: ROOT,
    env: { ...childEnv, ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'idemgen-e2e', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

export async function httpClient(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'idemgen-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

export type Result = CallToolResult & { structuredContent?: Record<string, unknown> };

export const call = (c: Client, name: string, args: Record<string, unknown>, timeout?: number): Promise<Result> =>
  c.callTool({ name, arguments: args }, undefined, timeout === undefined ? undefined : { timeout }) as Promise<Result>;

export const errorOf = (r: Result): Record<string, unknown> | undefined =>
  r.structuredContent?.error as Record<string, unknown> | undefined;

/** Same-key retries until the first call's outcome is recorded (an in-flight answer means: try again). */
export async function settle(c: Client, name: string, args: Record<string, unknown>): Promise<Result> {
  for (let i = 0; i < 50; i += 1) {
    const r = await call(c, name, args);
    const code = errorOf(r)?.code;
    if (code !== 'idempotency_in_flight' && code !== 'in_flight') return r;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('still in flight after 50 retries');
}
