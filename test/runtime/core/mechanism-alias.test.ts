/**
 * Mechanism names and their SOP numbers: rows and requests spelled `OP-1`…`OP-5` (generated code and stores
 * from before the rename) keep working, read as the names.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { validateUserConfig } from '../../../src/config/validate.js';
import { mechanismLabel, mechanismOf } from '../../../src/config/vocabulary.js';
import {
  checkpoint,
  createIdempotency,
  createMemoryStore,
  type StoreMechanism,
} from '../../../packages/runtime/src/index.js';
import { makeStore, type TestStore } from '../store/stores.js';

describe.each(['sqlite', 'postgres', 'redis'] as const)('a row stored with an OP-N mechanism on %s', (kind) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await makeStore(kind, inject('pgUrl'), 'mechalias');
  });
  afterAll(() => t.cleanup());

  it('reads back as the name, and a same-key call replays it', async () => {
    const now = Date.now();
    // What a runtime from before the rename wrote: the SOP number in the mechanism column.
    const claim = await t.store.claim({
      scope: '',
      key: 'old-row-key-0001',
      operation: 'POST /ledger',
      argsHash: 'h',
      mechanism: 'OP-2' as StoreMechanism,
      leaseToken: 'lease-1',
      now,
      leaseMs: 30_000,
      ttlMs: 86_400_000,
    });
    expect(claim.claimed).toBe(true);
    expect((await t.store.get({ scope: '', key: 'old-row-key-0001' }))?.mechanism).toBe('dedup-table');
  });
});

describe('an entry option spelled with the SOP number', () => {
  it('checkpoint({ mechanism: OP-2 }) is stored as dedup-table and a repeat through run replays the first result', async () => {
    const store = createMemoryStore();
    const idem = createIdempotency({ store });
    let calls = 0;
    const req = { operation: 'POST /ledger', key: 'alias-key-000001', args: { a: 1 } };
    const first = await checkpoint(store, { ...req, mechanism: 'OP-2' }, async () => ++calls);
    const second = await idem.run({ ...req, mechanism: 'dedup-table' }, async () => ++calls);
    expect([first.result, second.result, second.wasReplay, calls]).toEqual([1, 1, true, 1]);
    expect((await store.get({ scope: '', key: 'alias-key-000001' }))?.mechanism).toBe('dedup-table');
  });
});

describe('config and audit vocabulary', () => {
  it('accepts names and OP-N aliases, rejects anything else with the list of names', () => {
    expect(mechanismOf('OP-4')).toBe('unique-insert');
    expect(mechanismOf('saga')).toBe('saga');
    expect(mechanismOf('OP-7')).toBeUndefined();
    const ok = validateUserConfig(
      { overrides: { 'POST /a': { mechanism: 'OP-1' }, 'POST /b': { mechanism: 'method-idempotent' } } },
      'c.json',
    );
    expect(ok.filter((d) => d.severity === 'error')).toEqual([]);
    const bad = validateUserConfig({ overrides: { 'POST /a': { mechanism: 'OP-9' } } }, 'c.json');
    expect(bad.map((d) => d.message).join('\n')).toMatch(
      /Unknown mechanism "OP-9" \(one of native-key, .*OP-1…OP-5 also work\)/,
    );
  });

  it('the audit prints the SOP number next to the name', () => {
    expect(mechanismLabel('native-key')).toBe('native-key (OP-1)');
    expect(mechanismLabel('fail-closed')).toBe('fail-closed');
  });
});
