/**
 * The Redis store writes a claimed row, and later its completion, from fixed spans (rows.ts) instead of
 * JSON.stringify: the text must be exactly what JSON.stringify writes for the same row, whatever the
 * strings hold (quotes, backslashes, `/`, control characters, non-ASCII, lone surrogates).
 */
import { describe, expect, it } from 'vitest';
import { pendingRow } from '../../../../src/runtime/store/memory.js';
import { completedText, pendingText, renewedSpans, rowSpans } from '../../../../src/runtime/store/redis/rows.js';
import type { ClaimInput } from '../../../../src/runtime/store/types.js';

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
    mechanism: 'OP-1',
    leaseToken: `tok/${odd}`,
    now: 1,
    leaseMs: 0,
    ttlMs: 1,
    argsSummary: JSON.stringify({ to: `string(${odd.length})`, note: odd }),
  },
];

describe('Redis row text from spans', () => {
  it.each(inputs.map((i) => [i.key, i] as const))('pending and completed text of %s equal JSON.stringify', (_k, i) => {
    const row = pendingRow(i, null);
    const spans = rowSpans(row);
    expect(pendingText(spans)).toBe(JSON.stringify(row));
    for (const [result, externalId] of [
      ['{"id":"obj_1"}', null],
      [null, `ext_${odd}`],
      [odd, ''],
    ] as const) {
      const done = { ...row, status: 'completed', result, error: null, externalId, completedAt: i.now + 7 };
      expect(completedText(spans, result, externalId, i.now + 7)).toBe(JSON.stringify(done));
    }
    const renewed = { ...row, leaseExpiresAt: i.now + 90_000 };
    expect(pendingText(renewedSpans(spans, renewed))).toBe(JSON.stringify(renewed));
  });
});
