import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { expect, test } from 'vitest';
import { renderStoreMigration } from '../../src/emit/sql/index.js';
import { resolveConfig } from '../../src/config/types.js';
import { createIdempotency } from '../../packages/runtime/src/index.js';
import { createSqliteStore } from '../../packages/runtime/src/store/sqlite.js';
import { runCli } from '../helpers/cli.js';

const DAY = 86_400_000;

async function seededStore(): Promise<{ dir: string; url: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-store-cli-'));
  const file = join(dir, 'idem.db');
  const db = new Database(file);
  db.exec(renderStoreMigration('sqlite', resolveConfig().sql, { saga: false }).up);
  db.close();
  const store = createSqliteStore({ filename: file });
  // An old completed call (expired by now) and a send whose outcome is unknown (the process "died").
  const old = createIdempotency({ store, now: () => Date.now() - 3 * DAY });
  await old.run(
    {
      operation: 'POST /v2/email/send',
      key: 'key-old-0000000001',
      args: { to: 'a' },
      mechanism: 'fail-closed',
      ttlSeconds: 3600,
    },
    async () => ({ id: 'm1' }),
  );
  const idem = createIdempotency({ store, leaseMs: 1 });
  await expect(
    idem.run(
      { operation: 'POST /v2/sms', key: 'key-sms-0000000002', args: { To: '+1' }, mechanism: 'fail-closed' },
      async () => {
        throw new Error('socket hang up after the request was written');
      },
    ),
  ).rejects.toThrow();
  await store.close();
  await new Promise((r) => setTimeout(r, 20));
  return { dir, url: `sqlite:${file}` };
}

test('reconcile lists the unknown outcome and exits 1; prune removes only the expired completed row', async () => {
  const { dir, url } = await seededStore();
  const rec = await runCli(['reconcile', '--store', url], dir);
  expect(rec.code).toBe(1);
  expect(rec.stdout).toMatch(/1 row\(s\) need reconciliation/);
  expect(rec.stdout).toMatch(/POST \/v2\/sms\s+key=key-sms-0000000002/);
  const json = JSON.parse((await runCli(['reconcile', '--store', url, '--json'], dir)).stdout) as {
    operation: string;
  }[];
  expect(json.map((r) => r.operation)).toEqual(['POST /v2/sms']);
  const pruned = await runCli(['prune', '--store', url, '--json'], dir);
  expect(pruned.code).toBe(0);
  expect(JSON.parse(pruned.stdout)).toEqual({ removed: 1 });
  expect((await runCli(['reconcile', '--store', url], dir)).code).toBe(1);
});

test('a mistyped store is a diagnostic with exit 2, not a new empty database or a stack trace', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-store-cli-'));
  const missing = await runCli(['reconcile', '--store', 'sqlite:./nope.db'], dir);
  expect(missing.code).toBe(2);
  expect(missing.stderr).toMatch(/store_not_found/);
  const scheme = await runCli(['prune', '--store', 'mongodb://x'], dir);
  expect(scheme.code).toBe(2);
  expect(scheme.stderr).toMatch(/invalid_store_url/);
  const empty = join(dir, 'empty.db');
  new Database(empty).close();
  const noTable = await runCli(['reconcile', '--store', `sqlite:${empty}`], dir);
  expect(noTable.code).toBe(2);
  expect(noTable.stderr).toMatch(/store_unavailable/);
});

test('reconcile prints a stored error as one safe line: no quoted values, no CR/LF, no escape sequences', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-store-cli-'));
  const file = join(dir, 'idem.db');
  const db = new Database(file);
  db.exec(renderStoreMigration('sqlite', resolveConfig().sql, { saga: false }).up);
  db.close();
  const store = createSqliteStore({ filename: file });
  const idem = createIdempotency({ store, leaseMs: 1 });
  const secret = '+15550100\r\nX-Injected: 1\u001b[2J';
  await expect(
    idem.run(
      { operation: 'POST /v2/sms', key: 'key-sms-with-bad-error', args: { To: secret }, mechanism: 'fail-closed' },
      async () => {
        throw Object.assign(
          new TypeError(`Invalid header value "${secret}" for 'x-note'\nafter the request was written`),
          {
            code: 'ERR_X',
          },
        );
      },
    ),
  ).rejects.toThrow();
  await store.close();
  await new Promise((r) => setTimeout(r, 20));
  const rec = await runCli(['reconcile', '--store', `sqlite:${file}`], dir);
  expect(rec.code).toBe(1);
  const line = rec.stdout.split('\n').find((l) => l.includes('last error:')) ?? '';
  expect(line).toContain(
    `last error: TypeError ERR_X: Invalid header value <${secret.length} chars> for <6 chars> after the request was written`,
  );
  expect(rec.stdout).not.toContain('+15550100');
  expect([rec.stdout.includes('\r'), rec.stdout.includes('\u001b')]).toEqual([false, false]);
  expect(rec.stdout).not.toContain('X-Injected');
});
