/**
 * `providerReplayHeader`: the replay header a built-in provider documents, found by the servers' hosts the same
 * way `findProvider` finds the provider (globs, any case), outside a classify run.
 */
import { expect, test } from 'vitest';
import { findProvider, providerReplayHeader, BUILTIN_PROVIDERS } from '../../src/classify/providers.js';
import { ClassifyMemo } from '../../src/classify/memo.js';

test('a Stripe server gets Stripe’s replay header, whatever the case of its host and wherever it is listed', () => {
  expect(providerReplayHeader(['https://api.stripe.com'])).toBe('Idempotent-Replayed');
  expect(providerReplayHeader(['https://FILES.Stripe.com/v1'])).toBe('Idempotent-Replayed');
  expect(providerReplayHeader(['http://localhost:4010', 'https://api.stripe.com/'])).toBe('Idempotent-Replayed');
});

test('other servers, or none, get no header; asking again gives the same answers', () => {
  for (let i = 0; i < 2; i++) {
    expect(providerReplayHeader(['https://api.stripe.com.evil.test'])).toBeUndefined();
    expect(providerReplayHeader(['https://api.adyen.com'])).toBeUndefined();
    expect(providerReplayHeader(['not a url'])).toBeUndefined();
    expect(providerReplayHeader([])).toBeUndefined();
  }
});

test('findProvider matches the same hosts', () => {
  const memo = new ClassifyMemo();
  expect(findProvider(memo, BUILTIN_PROVIDERS, ['https://API.STRIPE.COM'], 'post', '/v1/charges')?.replayHeader).toBe(
    'Idempotent-Replayed',
  );
  expect(findProvider(memo, BUILTIN_PROVIDERS, ['https://api.stripe.com.evil.test'], 'post', '/v1/charges')).toBe(
    undefined,
  );
});
