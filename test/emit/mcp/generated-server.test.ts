/**
 * The generated MCP module (mcp/<api>.server.gen.ts over handlers/<api>.tools.gen.ts) with the real SDK
 * client, over stdio (its own `main()` in a child process) and Streamable HTTP (`register<Api>Tools` on a
 * node:http server), against a counting node:http API: one effect per key, replay flags, a client
 * timeout then a same-key retry, and a 4xx that leaves the key free.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../../packages/runtime/src/store/sqlite.js';
import { REPLAY_META } from '../../../packages/runtime/src/mcp/index.js';
import { MECHANISM_META, WINDOW_META } from '../../../packages/runtime/src/mcp/server.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { migratedSqliteFile } from '../../runtime/mcp/sqlite-db.js';
import { compilerOptions } from '../client/helpers/compile.js';
import { ROOT } from '../../helpers/cli.js';
import { ACCOUNT, BAD_NUMBER, NOTES_SPEC } from './notes-spec.js';
import { call, errorOf, httpClient, settle, stdioClient } from './client.js';
import { generateModules } from './generate-modules.js';
import ts from 'typescript';

let generated: Awaited<ReturnType<typeof generateModules>>;
let api: FaultServer;

beforeAll(async () => {
  generated = await generateModules('notes', 'notes.json', NOTES_SPEC);
});
afterEach(async () => {
  await api?.close();
});

it('writes a module per API that compiles under tsc --strict', () => {
  const text = generated.texts.get('mcp/notes.server.gen.ts');
  expect(text).toContain('export function registerNotesTools(server: McpServer, options: NotesMcpOptions): void');
  expect(text).toContain('export async function main(');
  expect(text).toMatchSnapshot();
  // Compiled as a user's project sees it: package imports (mapped to the sources by `paths`), --strict,
  // together with the repository's generated/mcp and generated/handlers.
  const dir = join(generated.base, 'compile');
  const sources = new Map<string, string>();
  for (const k of [
    'handlers/notes.tools.gen.ts',
    'handlers/notes.bindings.gen.ts',
    'mcp/notes.server.gen.ts',
    'mcp/store-tables.gen.ts',
  ])
    sources.set(k, generated.texts.get(k) as string);
  for (const folder of ['mcp', 'handlers']) {
    for (const name of readdirSync(join(ROOT, 'generated', folder)).filter((n) => n.endsWith('.ts')))
      sources.set(`repo/${folder}/${name}`, readFileSync(join(ROOT, 'generated', folder, name), 'utf8'));
  }
  const files = [...sources].map(([k, text]) => {
    const p = join(dir, k);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    return p;
  });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
  expect(files.filter((f) => f.includes('/repo/mcp/')).map((f) => f.slice(f.indexOf('/repo/mcp/') + 1))).toEqual([
    'repo/mcp/inventory.server.gen.ts',
    'repo/mcp/messaging.server.gen.ts',
    'repo/mcp/payments.server.gen.ts',
    'repo/mcp/store-tables.gen.ts',
  ]);
  const program = ts.createProgram(files, compilerOptions());
  const problems = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file === undefined || d.file.fileName.startsWith(dir));
  expect(problems.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
});

const TOOL = 'createMessage';
const args = (key: string, to = '+15550100') => ({ body: { to, body: 'hello' }, idempotency_key: key });

type Connect = () => Promise<{ client: Client; close: () => Promise<void> }>;

async function httpServer(storeFile: string): Promise<{ url: string; server: Server }> {
  const mod = (await import(generated.paths.get('mcp/notes.server.gen.ts') as string)) as {
    registerNotesTools: (server: McpServer, options: Record<string, unknown>) => void;
  };
  const store = createSqliteStore({ filename: storeFile });
  const server = createServer((req, res) => {
    const mcp = new McpServer({ name: 'notes', version: '1.0.0' });
    mod.registerNotesTools(mcp, {
      store,
      baseUrl: api.url,
      auth: { bearerAuth: 'api-token' },
      serverArguments: { AccountSid: ACCOUNT },
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void mcp.close());
    void mcp.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

const transports: Record<string, Connect> = {
  stdio: async () => {
    const { file } = migratedSqliteFile('idemgen-gen-stdio');
    const client = await stdioClient([generated.paths.get('mcp/notes.server.gen.ts') as string], {
      IDEMGEN_STORE: `sqlite:${file}`,
      IDEMGEN_BASE_URL: api.url,
      IDEMGEN_AUTH_BEARERAUTH: 'api-token',
      IDEMGEN_ARG_AccountSid: ACCOUNT,
    });
    return { client, close: () => client.close() };
  },
  http: async () => {
    const { file } = migratedSqliteFile('idemgen-gen-http');
    const { url, server } = await httpServer(file);
    const client = await httpClient(url);
    return {
      client,
      close: async () => {
        await client.close();
        server.closeAllConnections();
        server.close();
      },
    };
  },
};

describe.each(Object.keys(transports))('generated MCP server over %s', (kind) => {
  const connect = transports[kind] as Connect;

  it('lists tools without the server-side argument, with mechanism and window in _meta', async () => {
    api = await startFaultServer();
    const { client, close } = await connect();
    try {
      const { tools } = await client.listTools();
      const create = tools.find((t) => t.name === TOOL);
      expect(create?.inputSchema.required).toEqual(expect.arrayContaining(['idempotency_key', 'body']));
      expect(Object.keys(create?.inputSchema.properties ?? {})).not.toContain('AccountSid');
      expect(create?._meta).toMatchObject({ [MECHANISM_META]: 'fail-closed', [WINDOW_META]: 86_400 });
      expect(tools.find((t) => t.name === 'listMessages')?._meta?.[WINDOW_META]).toBeUndefined();
    } finally {
      await close();
    }
  });

  it('the same call twice → 1 effect and a replay flag; credentials and account id from the server', async () => {
    api = await startFaultServer();
    const { client, close } = await connect();
    try {
      const first = await call(client, TOOL, args(`${kind}-same-key-0001`));
      const second = await call(client, TOOL, args(`${kind}-same-key-0001`));
      expect(api.effects).toBe(1);
      expect(first.isError).toBeFalsy();
      expect(first.structuredContent).toMatchObject({ was_replay: false, result: { effect: 1 } });
      expect(second.structuredContent).toMatchObject({ was_replay: true, result: { effect: 1 } });
      expect(second._meta?.[REPLAY_META]).toMatchObject({ wasReplay: true });
      expect(api.requests[0]?.path).toBe(`/accounts/${ACCOUNT}/messages`);
      expect(api.requests[0]?.headers.authorization).toBe('Bearer api-token');
      expect(JSON.parse(api.requests[0]?.body ?? '{}')).toEqual({ to: '+15550100', body: 'hello' });
    } finally {
      await close();
    }
  });

  it('a client-side timeout, then a same-key retry → 1 effect', async () => {
    api = await startFaultServer();
    api.inject({ kind: 'delay', ms: 800 });
    const { client, close } = await connect();
    try {
      await expect(call(client, TOOL, args(`${kind}-timeout-key-02`), 200)).rejects.toThrow(/timed out/i);
      const retry = await settle(client, TOOL, args(`${kind}-timeout-key-02`));
      expect(retry.isError).toBeFalsy();
      expect(retry.structuredContent).toMatchObject({ was_replay: true, result: { effect: 1 } });
      expect(api.effects).toBe(1);
    } finally {
      await close();
    }
  });

  it('a 4xx → 0 effects, the API message in the result, the key reusable after correcting the arguments', async () => {
    api = await startFaultServer();
    api.inject(BAD_NUMBER);
    const { client, close } = await connect();
    try {
      const bad = await call(client, TOOL, args(`${kind}-bad-number-03`, '12'));
      expect(bad.isError).toBe(true);
      expect(api.effects).toBe(0);
      expect(errorOf(bad)).toMatchObject({ code: 'api_error', status: 400, executed: 'no', retry_same_key: true });
      expect(JSON.stringify(bad.content)).toContain('not a valid phone number');
      const fixed = await call(client, TOOL, args(`${kind}-bad-number-03`));
      expect(fixed.isError).toBeFalsy();
      expect(fixed.structuredContent).toMatchObject({ was_replay: false, result: { effect: 1 } });
      expect(api.effects).toBe(1);
    } finally {
      await close();
    }
  });
});

afterAll(() => undefined);
