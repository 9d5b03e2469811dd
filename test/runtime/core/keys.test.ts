/** Key derivation (SOP Step 3) and key validation. */
import { describe, expect, it } from 'vitest';
import {
  callerKey,
  contentKey,
  IdempotencyKeyInvalidError,
  intentKey,
  validateKey,
} from '../../../packages/runtime/src/index.js';
import { keySlotName, scopeString } from '../../../packages/runtime/src/support.js';

describe('intentKey', () => {
  const base = { scope: { thread: 't-1', turn: 3 }, operation: 'tool:send_email', args: { to: 'a@x', body: 'hi' } };

  it('is stable for the same intent and insensitive to key order', () => {
    expect(intentKey(base)).toBe(
      intentKey({ ...base, scope: { turn: 3, thread: 't-1' }, args: { body: 'hi', to: 'a@x' } }),
    );
    expect(intentKey(base)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes with the scope (new turn = new intent, SOP §6), the operation and the args', () => {
    const k = intentKey(base);
    expect(intentKey({ ...base, scope: { thread: 't-1', turn: 4 } })).not.toBe(k);
    expect(intentKey({ ...base, operation: 'tool:send_sms' })).not.toBe(k);
    expect(intentKey({ ...base, args: { to: 'a@x', body: 'hi!' } })).not.toBe(k);
  });
});

describe('contentKey', () => {
  it('hashes bytes and strings directly and objects canonically', () => {
    expect(contentKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(contentKey(new TextEncoder().encode('abc'))).toBe(contentKey('abc'));
    expect(contentKey({ b: 1, a: 2 })).toBe(contentKey({ a: 2, b: 1 }));
  });
});

describe('callerKey', () => {
  it('persists a new key in {operation}_idempotency_key BEFORE returning, and reuses it after', async () => {
    const state = new Map<string, string>();
    const events: string[] = [];
    const slot = {
      get: async (n: string) => state.get(n),
      set: async (n: string, v: string) => {
        events.push(`set ${n}`);
        state.set(n, v);
      },
    };
    let made = 0;
    const create = () => `key-${++made}-0000000000000000`;
    const k1 = await callerKey(slot, 'POST /v1/charges', create);
    events.push('call');
    const k2 = await callerKey(slot, 'POST /v1/charges', create);
    expect(k1).toBe(k2);
    expect(made).toBe(1);
    expect(events).toEqual(['set post_v1_charges_idempotency_key', 'call']);
  });

  it('names slots after the tool (SOP naming convention)', () => {
    expect(keySlotName('tool:send_email')).toBe('send_email_idempotency_key');
    expect(keySlotName('PUT /files/{id}')).toBe('put_files_id_idempotency_key');
    expect(keySlotName('***')).toBe('operation_idempotency_key');
  });

  it('works with a synchronous slot and the default uuid', async () => {
    const state: Record<string, string> = {};
    const key = await callerKey(
      {
        get: (n) => state[n],
        set: (n, v) => {
          state[n] = v;
        },
      },
      'tool:charge',
    );
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(state.charge_idempotency_key).toBe(key);
  });
});

describe('validateKey', () => {
  it.each([
    ['short', 'too-short'],
    ['too long', 'x'.repeat(256)],
    ['control char', 'abcdefghijklmnop\n'],
    ['non-ASCII', 'abcdefghijklmnopé'],
    ['leading space', ' abcdefghijklmnopq'],
  ])('rejects a %s key', (_, key) => {
    expect(() => validateKey(key)).toThrow(IdempotencyKeyInvalidError);
  });

  it('accepts printable ASCII within limits and honours custom limits', () => {
    expect(validateKey('8e03978e-40d5-43e8-bc93-6894a57f9324')).toBe('8e03978e-40d5-43e8-bc93-6894a57f9324');
    expect(() => validateKey('x'.repeat(65), { maxLength: 64 })).toThrow(/at most 64/);
    expect(validateKey('abcd', { minLength: 4 })).toBe('abcd');
    expect(() => validateKey(42)).toThrow(/string/);
  });
});

describe('scopeString', () => {
  it('canonicalizes records and hashes what does not fit the column', () => {
    expect(scopeString({ tenant: 'acme', user: 7 })).toBe(scopeString({ user: 7, tenant: 'acme' }));
    expect(scopeString(undefined)).toBe('');
    expect(scopeString('x'.repeat(300))).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe('validateKey errors say which operation and whose limit', () => {
  it('idemgen’s own minimum vs the API’s maximum', async () => {
    const { validateKey: check, IdempotencyKeyInvalidError: Invalid } = await import(
      '../../../packages/runtime/src/index.js'
    );
    const short = (() => {
      try {
        check('k'.repeat(8), {
          maxLength: 255,
          minLength: 16,
          operation: 'POST /v1/charges',
          apiLimits: ['maxLength'],
        });
      } catch (e) {
        return e;
      }
    })();
    expect(short).toBeInstanceOf(Invalid);
    expect(short).toMatchObject({ operation: 'POST /v1/charges', code: 'idempotency_key_invalid' });
    expect((short as Error).message).toBe(
      "POST /v1/charges: idempotency key is 8 chars; at least 16 required (idemgen's minimum, not the API's: enough entropy that two intents never share a key)",
    );
    const long = (() => {
      try {
        check('k'.repeat(300), { maxLength: 255, operation: 'POST /v1/charges', apiLimits: ['maxLength'] });
      } catch (e) {
        return e;
      }
    })();
    expect((long as Error).message).toBe(
      "POST /v1/charges: idempotency key is 300 chars; at most 255 allowed (the API's limit)",
    );
    const ours = (() => {
      try {
        check('k'.repeat(300));
      } catch (e) {
        return e;
      }
    })();
    expect((ours as Error).message).toMatch(
      /^idempotency key is 300 chars; at most 255 allowed \(idemgen's default limit/,
    );
  });
});
