/**
 * The Redis store never sends a whole row: the claim and the completion send spans (rows.ts) and the
 * script joins them around the server's times. The stored text must be exactly what JSON.stringify
 * writes for the same row, whatever the strings hold (quotes, backslashes, `/`, control characters,
 * non-ASCII, lone surrogates) — checked on a live server, on the caller's clock so the times are known.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pendingRow } from '../../../../packages/runtime/src/store/memory.js';
import { createRedisStore } from '../../../../packages/runtime/src/store/redis/store.js';
import type { ClaimInput, FullDedupStore } from '../../../../packages/runtime/src/store/types.js';

const odd = 'a"b\\c/d\u0001e\u2028é😀\ud800';
const inputs: ClaimInput[] = [
  {
    scope: '',
    key: 'plain-key-000000001',
    operation: 'POST /x',
    argsHash: 'a'.repeat(64),
    mechanism: 'fail-closed',
    leaseToken: 'c0ffee00-0000-4000-8000-000000000001',
    now: 1_764_500_000_000,
    leaseMs: 30_000,
    ttlMs: 86_400_000,
  },
  {
    scope: `tenant:${odd}`,
    key: `k-${odd}`,
    operation: `tool:${odd}`,
    argsHash: 'f'.repeat(64),
    mechanism: 'native-key',
    leaseToken: `tok/${odd}`,
    now: 1,
    leaseMs: 0,
    ttlMs: 600_000,
    argsSummary: JSON.stringify({ to: `string(${odd.length})`, note: odd }),
  },
];

describe('Redis row text from spans', () => {
  let raw: ReturnType<typeof createClient>;
  let store: FullDedupStore;
  const prefix = `rows_${process.pid}`;
  const rowKey = (i: ClaimInput) => `${prefix}:{idemgen_dedup}:row:${i.scope.length}:${i.scope}:${i.key}`;
  beforeAll(async () => {
    raw = createClient({ url: inject('redisUrl') });
    await raw.connect();
    store = createRedisStore({ client: raw, prefix, clock: 'caller' });
  });
  afterAll(async () => {
    for await (const keys of raw.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 }))
      if (keys.length) await raw.del(keys);
    await raw.close();
  });

  it.each(inputs.map((i) => [i.key, i] as const))(
    'pending and completed text of %s equal JSON.stringify',
    async (_k, i) => {
      const row = pendingRow(i, null);
      expect(await store.claim(i)).toMatchObject({ claimed: true, row });
      expect(await raw.get(rowKey(i))).toBe(JSON.stringify(row));
      const result = `{"note":${JSON.stringify(odd)}}`;
      const externalId = `ext_${odd}`;
      expect(await store.complete({ ...i, now: i.now + 7, result, externalId })).toBe(true);
      // The window restarts at the completion: expiresAt = completedAt + (expiresAt − createdAt).
      const done = {
        ...row,
        status: 'completed',
        result,
        externalId,
        completedAt: i.now + 7,
        expiresAt: i.now + 7 + i.ttlMs,
      };
      expect(await raw.get(rowKey(i))).toBe(JSON.stringify(done));
    },
  );

  it('on the server clock: the CLAIM_ROW script, then the plain claim on the extrapolated clock, write the same text', async () => {
    const own = createRedisStore({ client: raw, prefix }); // fresh: no clock reading yet, so the script claims
    for (const [n, i] of inputs.entries()) {
      const input = { ...i, key: `${i.key}-server`, now: 0 }; // the caller's now is ignored
      const before = Date.now();
      const claimed = await own.claim(input);
      expect(claimed.claimed).toBe(true);
      expect(claimed.row.createdAt).toBeGreaterThanOrEqual(before - 1_000); // the server's clock, not 0
      expect(await raw.get(rowKey(input))).toBe(JSON.stringify(claimed.row));
      expect(await own.get(input)).toEqual(claimed.row);
      if (n === 0) continue;
      expect(await own.complete({ ...input, result: '1' })).toBe(true);
      const done = await own.get(input);
      expect(done).toMatchObject({ status: 'completed', result: '1' });
      expect(await raw.get(rowKey(input))).toBe(JSON.stringify(done));
      expect(done!.expiresAt - done!.completedAt!).toBe(i.ttlMs);
    }
  });
});
