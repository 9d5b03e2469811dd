/**
 * Key carriers found by what a field's own description says, in our own wording
 * (test/fixtures/key-description): each shape is OP-1 with its carrier and the sentence that decided it,
 * whatever the field is called and however deep it sits; each near miss (another request's key, a receiver's
 * id, an upserting id, a switch, response data, the id of the thing to retrieve, an unsupported or deprecated
 * key, method idempotency) is not, and borderline evidence (array items, a number, a resource's id) is a
 * possible_key_carrier finding. Loaded with the real loader and IR, Swagger 2.0 `in: body`, `allOf` and
 * `formData` included.
 */
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveHeuristics } from '../../src/classify/heuristics.js';
import { classify } from '../../src/classify/index.js';
import { readKeyDescription, weighCandidate } from '../../src/classify/key-evidence.js';
import { ClassifyMemo } from '../../src/classify/memo.js';
import type { Plan, PlanEntry } from '../../src/classify/types.js';
import { resolveConfig } from '../../src/config/types.js';
import { loadApis } from '../emit/client/helpers/spec-plan.js';

const DIR = resolve(import.meta.dirname, '../fixtures/key-description');
let plan: Plan;

beforeAll(async () => {
  const loaded = await loadApis(['described.yaml', 'described-swagger2.yaml'], DIR);
  expect(loaded.errors).toEqual([]);
  plan = classify(loaded.apis, resolveConfig());
});

const entryOf = (key: string): PlanEntry => {
  const e = plan.apis.flatMap((a) => a.entries).find((x) => x.operation.key === key);
  if (!e) throw new Error(`no operation ${key}`);
  return e;
};
const findingsOf = (key: string) =>
  plan.diagnostics.filter((d) => d.code === 'possible_key_carrier' && d.message.startsWith(`${key}:`));

interface Carried {
  shape: string;
  key: string;
  in: 'header' | 'body' | 'form';
  path: string[];
  required?: boolean;
  /** The words of the deciding signal. */
  says: string;
}

const carried: Carried[] = [
  {
    shape: 'token that serves as the idempotency token',
    key: 'POST /vouchers',
    in: 'body',
    path: ['token'],
    says: 'serves as the idempotency key',
  },
  { shape: 'token "for idempotency"', key: 'POST /badges', in: 'body', path: ['token'], says: 'for idempotency' },
  {
    shape: 'requestId "for idempotence" (the noun)',
    key: 'POST /reports',
    in: 'body',
    path: ['requestId'],
    says: 'kept for idempotence',
  },
  {
    shape: 'required client_order_id, format uuid',
    key: 'POST /orders',
    in: 'body',
    path: ['client_order_id'],
    required: true,
    says: 'for idempotency',
  },
  {
    shape: 'nested event.transaction_id',
    key: 'POST /events',
    in: 'body',
    path: ['event', 'transaction_id'],
    says: 'guarantee idempotency',
  },
  {
    shape: 'nested subscription.external_id',
    key: 'POST /subscriptions',
    in: 'body',
    path: ['subscription', 'external_id'],
    says: 'used as an idempotency key',
  },
  {
    shape: 'header whose repeats are ignored',
    key: 'POST /pings',
    in: 'header',
    path: ['X-Retry-Guard'],
    says: 'the repeat is ignored',
  },
  {
    shape: '"will not be processed twice"',
    key: 'POST /transfers',
    in: 'body',
    path: ['reference'],
    says: 'not processed more than once',
  },
  {
    shape: '"retries … return the original"',
    key: 'POST /refunds',
    in: 'body',
    path: ['slip'],
    says: 'the earlier response is returned',
  },
  {
    shape: 'Swagger 2 in: body externalID, inline',
    key: 'POST /shipments',
    in: 'body',
    path: ['externalID'],
    says: 'request idempotency',
  },
  {
    shape: 'Swagger 2 in: body externalID in an allOf part',
    key: 'POST /parcels',
    in: 'body',
    path: ['externalID'],
    says: 'idempotent handling',
  },
  {
    shape: 'Swagger 2 formData field "used for de-duplication"',
    key: 'POST /uploads',
    in: 'form',
    path: ['upload_ref'],
    says: 'used to de-duplicate',
  },
];

describe('a field whose own description says it is the key is OP-1, whatever its name', () => {
  it.each(carried)('$shape ($key)', (row) => {
    const e = entryOf(row.key);
    expect(e.mechanism).toBe('native-key');
    expect(e.carrier?.in).toBe(row.in);
    expect(e.carrier?.path).toEqual(row.path);
    if (row.required !== undefined) expect(e.carrier?.required).toBe(row.required);
    const signals = e.reasons[0].signals ?? [];
    expect(signals.join(' | ')).toContain(row.says);
    expect(signals.some((s) => s.startsWith('description'))).toBe(true);
    expect(findingsOf(row.key)).toEqual([]);
  });
});

interface Missed {
  shape: string;
  key: string;
  /** A possible_key_carrier finding at this field, or none at all. */
  possible?: string;
  /** Words of the finding (its signals or its hint). */
  says?: string;
}

const missed: Missed[] = [
  { shape: 'idempotency_key naming the payment to cancel', key: 'POST /payments/cancel' },
  { shape: "a webhook delivery's id the receiver may dedupe on", key: 'POST /deliveries' },
  { shape: 'a client-chosen id that upserts', key: 'POST /contacts' },
  { shape: 'a boolean switch for content-based de-duplication', key: 'POST /queues' },
  { shape: 'a token "returned by" an earlier call', key: 'POST /jobs/status' },
  { shape: 'the id "of the job to retrieve"', key: 'POST /jobs/fetch' },
  { shape: 'idempotency "not supported yet"', key: 'POST /runs' },
  { shape: 'method idempotency ("this call is idempotent")', key: 'POST /tags' },
  { shape: 'Swagger 2 externalID of the shipment to retrieve', key: 'POST /shipments/lookup' },
  {
    shape: 'a deprecated key; the id of an earlier authorization that also dedupes',
    key: 'POST /payouts',
    possible: 'authorization_ref',
    says: 'identifies a resource',
  },
  {
    shape: 'events[].transaction_id: one key per item',
    key: 'POST /event-batches',
    possible: 'events[].transaction_id',
    says: 'one key per item',
  },
  {
    shape: 'a number the server dedupes on',
    key: 'POST /tickets',
    possible: 'serial',
    says: 'a number cannot hold a generated key',
  },
];

describe('near misses stay unlabelled, borderline evidence is a finding', () => {
  it.each(missed)('$shape ($key)', (row) => {
    const e = entryOf(row.key);
    expect(e.mechanism).not.toBe('native-key');
    const found = findingsOf(row.key);
    if (row.possible === undefined) {
      expect(found).toEqual([]);
      return;
    }
    expect(found).toHaveLength(1);
    expect(found[0].message).toContain(` ${row.possible} may carry`);
    expect(`${found[0].message} ${found[0].hint ?? ''}`).toContain(row.says);
  });
});

describe('readKeyDescription and weighCandidate: one reading, signals kept', () => {
  const h = resolveHeuristics(resolveConfig());
  const rows: { text: string; name: string; type?: string; verdict: 'key' | 'possible' | 'no'; why: string }[] = [
    {
      text: 'Any value; the server de-duplicates requests on it for a day.',
      name: 'ref',
      verdict: 'key',
      why: 'de-duplicates requests',
    },
    {
      text: 'Set it so retried calls are processed once; it guarantees idempotent processing.',
      name: 'tag',
      verdict: 'key',
      why: 'for idempotency',
    },
    { text: 'Idempotent request id.', name: 'marker', verdict: 'key', why: 'an idempotent request id' },
    {
      text: 'The request can not be replayed with the same value.',
      name: 'stamp',
      verdict: 'key',
      why: 'cannot be replayed',
    },
    {
      text: 'Lets a failed call be retried without the risk of charging twice.',
      name: 'guard',
      verdict: 'key',
      why: 'retries without running it twice',
    },
    { text: 'The dedup key of another system, stored as is.', name: 'other_dedup', verdict: 'no', why: '' },
    {
      text: 'The idempotency key of the original request you want to look up.',
      name: 'idempotency_key',
      verdict: 'no',
      why: 'names another request',
    },
    { text: 'Unique per request; used for tracing in our logs.', name: 'request_id', verdict: 'no', why: 'tracing' },
    { text: 'Unique per request.', name: 'nonce_value', verdict: 'possible', why: 'unique per request' },
    {
      text: 'Enables de-duplication of repeated requests.',
      name: 'dedupe',
      type: 'boolean',
      verdict: 'no',
      why: 'a switch',
    },
    // An object without a key's name is no key whatever it says; a key's name on one is still vetoed by its text.
    {
      text: 'Any value; the server de-duplicates requests on it for a day.',
      name: 'options',
      type: 'object',
      verdict: 'no',
      why: '',
    },
    {
      text: 'The idempotency key of the original request you want to look up.',
      name: 'idempotency_key',
      type: 'object',
      verdict: 'no',
      why: 'names another request',
    },
  ];
  it.each(rows)('$name: "$text" → $verdict', (row) => {
    const e = weighCandidate(
      { in: 'body', name: row.name, description: row.text, schema: { type: row.type ?? 'string' } },
      h,
      new ClassifyMemo(),
    );
    expect(e.verdict).toBe(row.verdict);
    expect(e.signals.join(' | ')).toContain(row.why);
  });

  it('reads a description the same with or without a run memo, markup aside', () => {
    const memo = new ClassifyMemo();
    const a = readKeyDescription('<p>The server uses it to <b>de-duplicate</b> requests.</p>', memo);
    const b = readKeyDescription('The server uses it to de-duplicate requests.');
    expect(a.score).toBe(3);
    expect(a.signals).toEqual(b.signals);
    expect(readKeyDescription('<p>The server uses it to <b>de-duplicate</b> requests.</p>', memo)).toBe(a);
  });
});
