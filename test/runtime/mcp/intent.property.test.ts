/** `hostIntent` (runtime/mcp/intent.ts) over generated `_meta` values: canonical, total, never throwing. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostIntent, INTENT_META, KEY_META } from '../../../packages/runtime/src/mcp/intent.js';

const name = fc.string({ minLength: 1, maxLength: 12 });
const value = fc.oneof(
  fc.string({ minLength: 1, maxLength: 20 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const flat = fc.dictionary(name, value, { minKeys: 1, maxKeys: 16 });

describe('hostIntent', () => {
  it('the same intent in any key order names the same scope', () => {
    fc.assert(
      fc.property(flat, (intent) => {
        const reversed = Object.fromEntries(Object.entries(intent).reverse());
        const a = hostIntent({ [INTENT_META]: intent }, 'create');
        const b = hostIntent({ [INTENT_META]: reversed }, 'create');
        expect(a.ok).toBe(true);
        expect(b).toEqual(a);
      }),
    );
  });

  it('different intents, or another tool, name different scopes', () => {
    fc.assert(
      fc.property(flat, flat, (x, y) => {
        fc.pre(JSON.stringify(Object.entries(x).sort()) !== JSON.stringify(Object.entries(y).sort()));
        const a = hostIntent({ [INTENT_META]: x }, 'create');
        const b = hostIntent({ [INTENT_META]: y }, 'create');
        expect(a.ok && b.ok && a.intent?.intent !== b.intent?.intent).toBe(true);
        expect(hostIntent({ [INTENT_META]: x }, 'delete')).not.toEqual(a);
      }),
    );
  });

  it('any JSON as the intent or the key: an answer, never a throw; accepted only as a flat object / a string', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (intent, key) => {
        const i = hostIntent({ [INTENT_META]: intent }, 't');
        const flatObject =
          typeof intent === 'object' &&
          intent !== null &&
          !Array.isArray(intent) &&
          Object.values(intent).every((v) => typeof v === 'string' || typeof v === 'number');
        if (i.ok) expect(flatObject).toBe(true);
        else expect(i.message).toContain(INTENT_META);
        const k = hostIntent({ [KEY_META]: key }, 't');
        if (k.ok) expect(typeof key).toBe('string');
        else expect(k.message).toContain(KEY_META);
      }),
    );
  });
});
