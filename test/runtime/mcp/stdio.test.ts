/**
 * withIdempotency in a real child process over stdio (`StdioClientTransport` spawning
 * `node --import tsx test/runtime/mcp/server-fixture.ts`), persisted in a SQLite file, across a restart.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { REPLAY_META } from '../../../packages/runtime/src/mcp/index.js';
import { migratedSqliteFile } from './sqlite-db.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

async function spawnServer(sqlite: string, effects: string, delayMs = 0): Promise<Client> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (typeof v === 'string') env[k] = v;
  Object.assign(env, { IDEMGEN_SQLITE: sqlite, IDEMGEN_EFFECTS: effects, IDEMGEN_DELAY_MS: String(delayMs) });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'test/runtime/mcp/server-fixture.ts'],
    cwd: repoRoot,
    env,
    stderr: 'inherit',
  });
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const effectCount = (file: string): number =>
  existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).length : 0;
const call = (c: Client, args: Record<string, unknown>, timeout?: number) =>
  c.callTool({ name: 'send_message', arguments: args }, undefined, timeout === undefined ? undefined : { timeout });

describe('withIdempotency over stdio with a SQLite file', () => {
  it('dedupes same-key calls, reports conflicts and missing keys', async () => {
    const { dir, file } = migratedSqliteFile('idemgen-mcp-stdio');
    const effects = join(dir, 'effects.log');
    const client = await spawnServer(file, effects);
    try {
      const args = { channel: 'ops', text: 'hello', idempotency_key: 'stdio-key-0001-abcdef' };
      const first = await call(client, args);
      const second = await call(client, args);
      expect(effectCount(effects)).toBe(1);
      expect(second.content).toEqual(first.content);
      expect(second._meta?.[REPLAY_META]).toMatchObject({ wasReplay: true });
      const conflict = await call(client, { ...args, text: 'other' });
      expect(conflict.isError).toBe(true);
      expect(JSON.stringify(conflict.content)).toContain('different arguments');
      const missing = await call(client, { channel: 'ops', text: 'hello' });
      expect(missing.isError).toBe(true);
      expect(effectCount(effects)).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('survives a client timeout and a server restart without a second effect', async () => {
    const { dir, file } = migratedSqliteFile('idemgen-mcp-restart');
    const effects = join(dir, 'effects.log');
    const args = { channel: 'billing', text: 'invoice sent', idempotency_key: 'restart-key-0002-abcdef' };
    const slow = await spawnServer(file, effects, 700);
    let original: Awaited<ReturnType<typeof call>>;
    try {
      // The client gives up after 150 ms; the server still completes the side effect.
      await expect(call(slow, args, 150)).rejects.toThrow(/timed out/i);
      original = await call(slow, args);
      expect(original.isError).toBeFalsy();
      expect(original._meta?.[REPLAY_META]).toMatchObject({ wasReplay: true });
      expect(effectCount(effects)).toBe(1);
    } finally {
      await slow.close();
    }
    const restarted = await spawnServer(file, effects);
    try {
      const again = await call(restarted, args);
      expect(again.content).toEqual(original.content);
      expect(again.structuredContent).toEqual(original.structuredContent);
      expect(again._meta?.[REPLAY_META]).toMatchObject({ wasReplay: true });
      expect(effectCount(effects)).toBe(1);
      const pids = readFileSync(effects, 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { pid: number }).pid);
      expect(pids).toHaveLength(1);
    } finally {
      await restarted.close();
    }
  });
});
