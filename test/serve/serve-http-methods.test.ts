/**
 * `serve --http` answers every method at once: the stateless server offers no standalone SSE stream, so a
 * GET on /mcp is 405 with `Allow: POST` (as the Streamable HTTP transport spec allows) instead of a stream
 * held open forever; DELETE (end a session) is 405 too, and the token check still comes first.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { httpClient } from '../emit/mcp/client.js';
import { NOTES_SPEC } from '../emit/mcp/notes-spec.js';
import { spawnServe, type ServeProcess } from './spawn-serve.js';

const TOKEN = 'methods-secret-token-0123456789';
let served: ServeProcess;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-serve-methods-'));
  writeFileSync(join(dir, 'notes.json'), JSON.stringify(NOTES_SPEC));
  served = await spawnServe([
    join(dir, 'notes.json'),
    '--http',
    '0',
    '--store',
    `sqlite:${join(dir, 'methods.sqlite')}`,
    '--token',
    `alice=${TOKEN}`,
  ]);
});
afterAll(async () => {
  await served?.stop();
});

const auth = { authorization: `Bearer ${TOKEN}` };

it('GET /mcp (an SSE stream request) is answered 405 with Allow: POST, not held open', async () => {
  const res = await fetch(served.url, {
    headers: { ...auth, accept: 'text/event-stream' },
    signal: AbortSignal.timeout(10_000),
  });
  expect(res.status).toBe(405);
  expect(res.headers.get('allow')).toBe('POST');
  const body = (await res.json()) as { error: { message: string } };
  expect(body.error.message).toMatch(/no SSE stream/);
});

it('DELETE /mcp is 405 (stateless: no session); a GET without the token is still 401', async () => {
  const del = await fetch(served.url, { method: 'DELETE', headers: auth, signal: AbortSignal.timeout(10_000) });
  expect([del.status, del.headers.get('allow')]).toEqual([405, 'POST']);
  await del.text();
  const anon = await fetch(served.url, {
    headers: { accept: 'text/event-stream' },
    signal: AbortSignal.timeout(10_000),
  });
  expect(anon.status).toBe(401);
  await anon.text();
});

it('the SDK client still connects and lists tools over POST', async () => {
  const client = await httpClient(served.url, auth);
  try {
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['createMessage', 'listMessages']);
  } finally {
    await client.close();
  }
});
