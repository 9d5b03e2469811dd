/**
 * One translator, one wording: every runtime error carries `code`, `executed` and `retrySameKey`
 * as data; the tool runtime's outcome and withIdempotency's `isError` result both render
 * `toToolError`, so the model reads the same sentence and the same facts whichever door it came through.
 */
import { describe, expect, it } from 'vitest';
import {
  createMemoryStore,
  IdempotencyConflictError,
  IdempotencyFailedError,
  IdempotencyFencedError,
  IdempotencyInFlightError,
  IdempotencyKeyInvalidError,
  IdempotencyNotSentError,
  IdempotencyOutcomeUnknownError,
  IdempotencyRecordCorruptError,
  IdempotencyResultTooLargeError,
  IdempotencyResultUnencodableError,
  IdempotencyStoreUnavailableError,
  InvalidArgumentsError,
} from '../../../packages/runtime/src/index.js';
import { principalScope, ScopeUnknownError } from '../../../packages/runtime/src/core/principal.js';
import { HttpStatusError } from '../../../packages/runtime/src/http/caller.js';
import { ERROR_META, withIdempotency } from '../../../packages/runtime/src/mcp/index.js';
import { toToolError } from '../../../packages/runtime/src/tools/outcome.js';

const ctx = { key: 'k-0000000000000001', operation: 'tool:x', scope: '' };

/** What `principalScope` throws for per-caller credentials with no scope secret. */
function secretMissing(): Error & { executed?: string; retrySameKey?: boolean } {
  try {
    principalScope('sub:a', { bearer: 'token-a' }, undefined);
  } catch (err) {
    return err as Error;
  }
  throw new Error('principalScope did not refuse credentials without a secret');
}

const errors: [string, Error & { executed?: string; retrySameKey?: boolean }, string, string, boolean][] = [
  ['conflict', new IdempotencyConflictError('c', ctx), 'idempotency_conflict', 'no', false],
  ['in flight', new IdempotencyInFlightError('f', ctx), 'idempotency_in_flight', 'unknown', true],
  ['key invalid', new IdempotencyKeyInvalidError('too short', ctx), 'idempotency_key_invalid', 'no', false],
  ['store down', new IdempotencyStoreUnavailableError('s', ctx), 'store_unavailable', 'no', true],
  ['corrupt', new IdempotencyRecordCorruptError('r', ctx, '{'), 'idempotency_record_corrupt', 'unknown', true],
  ['unknown', new IdempotencyOutcomeUnknownError('u', ctx), 'idempotency_outcome_unknown', 'unknown', true],
  ['fenced', new IdempotencyFencedError('x', ctx), 'idempotency_fenced', 'yes', true],
  ['too large', new IdempotencyResultTooLargeError('t', ctx), 'idempotency_result_unavailable', 'yes', false],
  ['unencodable', new IdempotencyResultUnencodableError('t', ctx), 'idempotency_result_unavailable', 'yes', false],
  ['failed', new IdempotencyFailedError('stored 4xx', ctx), 'idempotency_failed', 'unknown', false],
  ['not sent', new IdempotencyNotSentError('refused'), 'not_sent', 'no', true],
  ['invalid arguments', new InvalidArgumentsError('empty path', 'path.id'), 'invalid_arguments', 'no', true],
  ['scope unknown', new ScopeUnknownError(), 'idempotency_scope_unknown', 'no', true],
  ['scope secret missing', secretMissing(), 'idempotency_scope_unknown', 'no', true],
];

describe('every runtime error carries its facts; the tool answer only renders them', () => {
  it.each(errors)('%s: code, executed and retry_same_key come from the error', (_, err, code, executed, retry) => {
    expect([err.executed, err.retrySameKey]).toEqual([executed, retry]);
    const out = toToolError(err, 'write', false);
    expect(out).toMatchObject({ code, executed, retry_same_key: retry });
    expect(out.message).not.toBe('');
  });

  it('the two scope refusals (no subject, credentials without a secret) are one class: one shape, own words', () => {
    const missing = secretMissing();
    expect(missing).toBeInstanceOf(ScopeUnknownError);
    const noSubject = new ScopeUnknownError();
    const facts = (e: Error) => {
      const { code, executed, retrySameKey, name } = e as ScopeUnknownError;
      return { code, executed, retrySameKey, name };
    };
    expect(facts(missing)).toEqual(facts(noSubject));
    expect(missing.message).toMatch(/scope secret/);
    expect(noSubject.message).toMatch(/names no subject/);
  });

  it('an HTTP status error: a definite 4xx is api_error with the API words in the sentence, a 5xx unknown', () => {
    const res = { status: 400, headers: {}, body: { code: 21211, message: 'not a valid phone number' } };
    const bad = toToolError(new HttpStatusError('400', res, true), 'write', false);
    expect(bad).toMatchObject({ code: 'api_error', executed: 'no', retry_same_key: true, status: 400 });
    expect(bad.message).toContain('HTTP 400, 21211: not a valid phone number');
    const gone = toToolError(new HttpStatusError('503', { ...res, status: 503 }, false), 'write', true);
    expect(gone).toMatchObject({ code: 'idempotency_outcome_unknown', executed: 'unknown', retry_same_key: true });
  });

  it('anything else is tool_error, outcome unknown, never "same key"', () => {
    expect(toToolError(new Error('boom'), 'write', false)).toEqual({
      code: 'tool_error',
      executed: 'unknown',
      retry_same_key: false,
      message: 'The tool failed: boom',
    });
  });
});

describe('withIdempotency renders the same translator (one wording)', () => {
  const answer = async (tool: ReturnType<typeof withIdempotency>, args: Record<string, unknown>) => {
    const got = await tool(args, {});
    return { text: (got.content as { text: string }[])[0]?.text, meta: got._meta?.[ERROR_META], isError: got.isError };
  };
  const rendered = (err: unknown) => {
    const { message, ...facts } = toToolError(err, 'write', false);
    return { text: message, meta: facts, isError: true };
  };

  it('a conflict, a bad key and a failed handler: the words and facts of the tool outcome', async () => {
    // (a 4xx thrown by a generated client inside the handler: test/runtime/core/active-run.test.ts)
    const tool = withIdempotency(
      async (args: Record<string, unknown>) => {
        if (args.fail === 'boom') throw new Error('socket hang up');
        return { content: [] };
      },
      { store: createMemoryStore(), operation: 'tool:x', windowMs: 0 },
    );
    // A handler that throws: the store cannot know whether the effect happened (fail closed).
    const boom = await answer(tool, { fail: 'boom', idempotency_key: 'voice-key-boom-000001' });
    expect(boom.meta).toEqual(rendered(new IdempotencyOutcomeUnknownError('u', ctx)).meta);
    expect(boom.text).toMatch(/^The outcome is unknown \(.*\) and it is not run again automatically \(fail closed\)/);
    await answer(tool, { fail: 'none', idempotency_key: 'voice-key-conflict-01' });
    expect(await answer(tool, { fail: 'other', idempotency_key: 'voice-key-conflict-01' })).toEqual(
      rendered(new IdempotencyConflictError('c', ctx)),
    );
    const short = await answer(tool, { fail: 'none', idempotency_key: 'abc' });
    expect(short.meta).toEqual(rendered(new IdempotencyKeyInvalidError('x', ctx)).meta);
    expect(short.text).toMatch(/^Invalid idempotency_key: .*Send a new key of printable ASCII characters/);
  });

  it('a scope it cannot resolve answers with the same words as the tool runtime', async () => {
    const tool = withIdempotency(async () => ({ content: [] }), { store: createMemoryStore(), operation: 'tool:x' });
    const got = await tool(
      { idempotency_key: 'voice-key-0000000002' },
      { authInfo: { token: 't', clientId: 'c', scopes: [] } },
    );
    const { message, ...facts } = toToolError(new ScopeUnknownError(), 'write', false);
    expect(got.content).toEqual([{ type: 'text', text: message }]);
    expect(got._meta?.[ERROR_META]).toEqual(facts);
  });
});
