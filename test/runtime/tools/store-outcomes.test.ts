/**
 * What the model reads when the store is the problem: a down store is `store_unavailable` with
 * `executed: "no"`, a damaged row is never "use a new key", an in-flight call says when to retry, and a
 * first result the store could not keep is marked `replayable: false` (tool runtime and MCP middleware).
 */
import { describe, expect, it } from 'vitest';
import {
  createMemoryStore,
  IdempotencyInFlightError,
  IdempotencyRecordCorruptError,
  IdempotencyStoreUnavailableError,
} from '../../../packages/runtime/src/index.js';
import { inFlight } from '../../../packages/runtime/src/core/errors.js';
import { withIdempotency } from '../../../packages/runtime/src/mcp/index.js';
import { outcomeToResult } from '../../../packages/runtime/src/mcp/outcome.js';
import { toToolError } from '../../../packages/runtime/src/tools/outcome.js';

const ctx = { key: 'k-0000000000000001', operation: 'POST /x', scope: '' };

describe('tool outcomes of the store errors', () => {
  it('store_unavailable: nothing executed, retry the same key later', () => {
    const err = new IdempotencyStoreUnavailableError('down', ctx);
    expect(toToolError(err, 'write', false)).toEqual({
      code: 'store_unavailable',
      executed: 'no',
      retry_same_key: true,
      message: expect.stringMatching(/unreachable.*nothing was executed.*Retry later with the same key/),
    });
  });

  it('a damaged record: outcome unknown, the same key (never a new one) after an operator repairs it', () => {
    const out = toToolError(new IdempotencyRecordCorruptError('bad', ctx, '{"a'), 'write', false);
    expect(out).toMatchObject({ code: 'idempotency_record_corrupt', executed: 'unknown', retry_same_key: true });
    expect(out.message).toMatch(/never retry with a new key/);
  });

  it('in flight: retry_after_ms from the lease in the outcome and the message; none without a row', () => {
    const row = { leaseExpiresAt: 10_000 } as never;
    const err = inFlight('busy', { ...ctx, state: row }, 2_500);
    expect([err.retryAfterMs, err.retryAt?.getTime()]).toEqual([7_500, 10_000]);
    const out = toToolError(err, 'write', false);
    expect(out).toMatchObject({ code: 'idempotency_in_flight', retry_after_ms: 7_500 });
    expect(out.message).toMatch(/Retry in about 8 s/);
    const bare = toToolError(new IdempotencyInFlightError('busy', ctx), 'write', false);
    expect(bare.retry_after_ms).toBeUndefined();
  });

  it('replayable: false reaches the MCP result body', () => {
    const result = outcomeToResult({ ok: true, result: { n: 1 }, was_replay: false, replayable: false });
    expect(result.structuredContent).toEqual({ result: { n: 1 }, was_replay: false, replayable: false });
  });
});

describe('the MCP middleware', () => {
  const text = (r: { content?: unknown[] }) => ((r.content ?? [])[0] as { text: string }).text;

  it('marks a first result the store could not keep; the retry says the result is unavailable, nothing reruns', async () => {
    let runs = 0;
    const tool = withIdempotency(
      async () => {
        runs++;
        return { content: [{ type: 'text', text: 'x'.repeat(500) }] };
      },
      { store: createMemoryStore(), operation: 'tool:big', maxResultBytes: 100, windowMs: 0 },
    );
    const args = { idempotency_key: 'mcp-big-00000000001' };
    const first = await tool(args, {});
    expect(first._meta).toEqual({ 'idemgen/replayable': false });
    expect(text(first)).toHaveLength(500);
    const again = await tool(args, {});
    expect(again.isError).toBe(true);
    expect(again._meta).toEqual({
      'idemgen/error': { code: 'idempotency_result_unavailable', executed: 'yes', retry_same_key: false },
    });
    expect(runs).toBe(1);
  });

  it('an in-flight duplicate carries retry_after_ms', async () => {
    let release!: () => void;
    const tool = withIdempotency(
      () => new Promise<{ content: unknown[] }>((r) => (release = () => r({ content: [] }))),
      { store: createMemoryStore(), operation: 'tool:slow', leaseMs: 30_000, waitMs: 0, windowMs: 0 },
    );
    const args = { idempotency_key: 'mcp-slow-0000000001' };
    const first = tool(args, {});
    await new Promise((r) => setTimeout(r, 20));
    const dup = await tool(args, {});
    const meta = dup._meta?.['idemgen/error'] as { code: string; retry_after_ms: number };
    expect(meta.code).toBe('idempotency_in_flight');
    expect(meta.retry_after_ms).toBeGreaterThan(29_000);
    expect(meta.retry_after_ms).toBeLessThanOrEqual(30_000);
    release();
    await first;
  });
});
