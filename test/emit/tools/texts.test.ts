import { describe, expect, it } from 'vitest';
import type { Mechanism, PlanEntry } from '../../../src/classify/types.js';
import { capText, describeOperation, MAX_DESCRIPTION, plainText } from '../../../src/emit/tools/description.js';
import { keyDescription } from '../../../src/emit/tools/index.js';
import { entry, httpOp, toolOp } from '../../helpers/plan.js';

const post = httpOp('post', '/v1/things');
const send = toolOp('send_email', { type: 'object', properties: {} });

// Who dedupes must be true per mechanism (the API's own key vs this server's store); each case names the mechanism.
const keyCases: { mechanism: Mechanism; why: string; e: PlanEntry; says: string; notSays: string }[] = [
  {
    mechanism: 'native-key',
    why: 'HTTP with a known window: the API dedupes',
    e: entry(post, 'native-key', { ttlSeconds: 86_400 }),
    says: 'The API deduplicates it for 24 hours.',
    notSays: 'This server',
  },
  {
    mechanism: 'native-key',
    why: 'HTTP without a known window: no invented window',
    e: entry(post, 'native-key'),
    says: 'The API deduplicates it.',
    notSays: ' for ',
  },
  {
    mechanism: 'native-key',
    why: 'a tool with its own key argument dedupes itself',
    e: entry(send, 'native-key'),
    says: 'The tool deduplicates it.',
    notSays: 'This server',
  },
  {
    mechanism: 'fail-closed',
    why: 'the tool server dedupes',
    e: entry(send, 'fail-closed'),
    says: 'This server deduplicates it for 24 hours.',
    notSays: 'the API',
  },
  {
    mechanism: 'dedup-table',
    why: 'the tool server dedupes',
    e: entry(post, 'dedup-table'),
    says: 'This server deduplicates it for 24 hours.',
    notSays: 'the API',
  },
  {
    mechanism: 'unique-insert',
    why: 'the tool server dedupes',
    e: entry(post, 'unique-insert'),
    says: 'This server deduplicates it for 24 hours.',
    notSays: 'the API',
  },
  {
    mechanism: 'saga',
    why: 'the tool server dedupes',
    e: entry(send, 'saga'),
    says: 'This server deduplicates it for 24 hours.',
    notSays: 'the API',
  },
];

describe('idempotency_key description', () => {
  it.each(keyCases)('$mechanism: $why', ({ e, says, notSays }) => {
    const text = keyDescription(e, 86_400);
    expect(text).toContain(says);
    expect(text).not.toContain(notSays);
    expect(text).toContain('One new key per intended action');
    expect(text).toContain('reuse the same key on every retry, also after a timeout');
    expect(text).not.toMatch(/OP-\d|SOP|middleware/);
  });

  it('stays within 140 characters for every owner and any window up to 9,999 days', () => {
    const windows = [undefined, 1, 59, 61, 3599, 3601, 86_399, 9_999 * 86_400, 86_400 * 2 - 1];
    const mechanisms: Mechanism[] = ['native-key', 'fail-closed'];
    for (const ttl of windows)
      for (const m of mechanisms)
        for (const op of [post, send]) {
          const text = keyDescription(entry(op, m, ttl !== undefined ? { ttlSeconds: ttl } : {}), ttl ?? 86_400);
          expect(text.length, text).toBeLessThanOrEqual(140);
        }
  });
});

const long = `<p>${'word '.repeat(400)}</p>`;

describe('tool description text', () => {
  it.each([
    {
      why: 'summary beats a long description',
      op: httpOp('post', '/a', { summary: 'Create a charge', description: long }),
      expected: 'Create a charge',
    },
    {
      why: 'HTML is stripped and entities decoded',
      op: httpOp('post', '/b', {
        description: '<p>Creates a <code>Charge</code> &amp; returns it.</p>\n\n<p>Idempotent.</p>',
      }),
      expected: 'Creates a Charge & returns it. Idempotent.',
    },
    {
      why: 'an empty summary falls back to the description',
      op: httpOp('post', '/c', { summary: '  ', description: 'Does c.' }),
      expected: 'Does c.',
    },
    { why: 'nothing written: method and path', op: httpOp('post', '/d'), expected: 'POST /d' },
    {
      why: 'a tool keeps its own text (line breaks included)',
      op: toolOp('t', {}, { description: 'Line one.\n- item' }),
      expected: 'Line one.\n- item',
    },
  ])('$why', ({ op, expected }) => {
    expect(describeOperation(op)).toBe(expected);
  });

  it('caps at 1,024 characters with an ellipsis (OpenAI function.description limit)', () => {
    const text = describeOperation(httpOp('post', '/e', { description: long }));
    expect(Array.from(text)).toHaveLength(MAX_DESCRIPTION);
    expect(text.endsWith('…')).toBe(true);
    expect(capText('short')).toBe('short');
    expect(capText('x'.repeat(MAX_DESCRIPTION))).toBe('x'.repeat(MAX_DESCRIPTION));
    expect(Array.from(describeOperation(toolOp('t', {}, { description: 'é'.repeat(2000) })))).toHaveLength(
      MAX_DESCRIPTION,
    );
  });

  it('plainText keeps a lone "<" that is not a tag', () => {
    expect(plainText('a < b and c > d')).toBe('a < b and c > d');
  });
});
