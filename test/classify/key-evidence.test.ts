/**
 * The evidence model for key carriers. Each row is an operation of our own fixture
 * (test/fixtures/key-evidence/carriers.yaml), loaded with the real loader and IR and classified with the
 * default config: the new carrier shapes are OP-1 with the carrier and the signals that decided it, the near
 * misses are not (and get no finding), and borderline evidence is a possible_key_carrier finding whose hint is
 * an override that, pasted into the config, makes the operation OP-1.
 */
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { classify } from '../../src/classify/index.js';
import type { Plan, PlanEntry } from '../../src/classify/types.js';
import { resolveConfig, type UserConfig } from '../../src/config/types.js';
import type { ApiModel } from '../../src/ir/types.js';
import { loadApis } from '../emit/client/helpers/spec-plan.js';

const DIR = resolve(import.meta.dirname, '../fixtures/key-evidence');
let apis: ApiModel[];
let plan: Plan;
const entryOf = (p: Plan, key: string): PlanEntry => {
  const e = p.apis.flatMap((a) => a.entries).find((x) => x.operation.key === key);
  if (!e) throw new Error(`no operation ${key}`);
  return e;
};
const findingsOf = (p: Plan, key: string) =>
  p.diagnostics.filter((d) => d.code === 'possible_key_carrier' && d.message.startsWith(`${key}:`));

beforeAll(async () => {
  const loaded = await loadApis(['carriers.yaml'], DIR);
  expect(loaded.errors).toEqual([]);
  apis = loaded.apis;
  plan = classify(apis, resolveConfig());
});

interface KeyRow {
  shape: string;
  key: string;
  in: 'header' | 'query' | 'body' | 'form';
  path: string[];
  firstSent?: string;
  /** Substrings the reason's signals must contain (what carried the decision). */
  signals: string[];
}

const keys: KeyRow[] = [
  {
    shape: 'OASIS pair declared',
    key: 'POST /oasis',
    in: 'header',
    path: ['Repeatability-Request-ID'],
    firstSent: 'Repeatability-First-Sent',
    signals: ['OASIS Repeatable Requests'],
  },
  {
    shape: 'OASIS id only (First-Sent still sent)',
    key: 'POST /oasis-id-only',
    in: 'header',
    path: ['repeatability-request-id'],
    firstSent: 'Repeatability-First-Sent',
    signals: ['OASIS Repeatable Requests'],
  },
  {
    shape: 'AWS ClientToken in the body (description in an allOf member)',
    key: 'POST /aws-body',
    in: 'body',
    path: ['ClientToken'],
    signals: ['AWS client token'],
  },
  {
    shape: 'AWS ClientToken in the query',
    key: 'POST /aws-query',
    in: 'query',
    path: ['ClientToken'],
    signals: ['AWS client token'],
  },
  {
    shape: 'Google requestId (query, "retry … ignore the request")',
    key: 'DELETE /google-query',
    in: 'query',
    path: ['requestId'],
    signals: ['Google requestId', 'ignore the request if it has already been completed'],
  },
  {
    shape: 'Google requestId (body, "used to de-dup")',
    key: 'POST /google-body',
    in: 'body',
    path: ['requestId'],
    signals: ['used to de-duplicate'],
  },
  {
    shape: 'command id: "ignore commands with the same"',
    key: 'POST /command',
    in: 'body',
    path: ['command_id'],
    signals: ['name command_id', 'prevents duplicates'],
  },
  {
    shape: 'any name: "not processed multiple times"',
    key: 'POST /transfer',
    in: 'body',
    path: ['reference'],
    signals: ['not processed more than once', 'ensures the transfer is not processed multiple times'],
  },
  {
    shape: 'header: "retry with the same value"',
    key: 'POST /retry-same',
    in: 'header',
    path: ['X-Client-Ref'],
    signals: ['retry with the same value'],
  },
  {
    shape: 'nested body field',
    key: 'POST /nested',
    in: 'body',
    path: ['payment', 'dedupe_token'],
    signals: ['used to de-duplicate'],
  },
  {
    shape: 'form field: "only the first … is processed"',
    key: 'POST /form',
    in: 'form',
    path: ['SubmissionId'],
    signals: ['processed at most once'],
  },
  {
    shape: 'oneOf: in every variant',
    key: 'POST /variants',
    in: 'body',
    path: ['client_order_id'],
    signals: ['used to de-duplicate'],
  },
];

describe('new carrier shapes are OP-1 with the signals that carried them', () => {
  it.each(keys)('$shape ($key)', (row) => {
    const e = entryOf(plan, row.key);
    expect(e).toMatchObject({ class: 'native-key', mechanism: 'native-key', carrier: { in: row.in, path: row.path } });
    expect(e.carrier?.firstSent).toBe(row.firstSent);
    const signals = e.reasons[0].signals?.join(' | ') ?? '';
    for (const s of row.signals) expect(signals).toContain(s);
    expect(findingsOf(plan, row.key)).toEqual([]);
  });
});

const misses: [string, string][] = [
  ['a key field that names the payment to cancel', 'POST /cancel-by-key'],
  ['"the id of the request to approve"', 'POST /approve'],
  ['tracing headers (X-Request-ID, client-request-id, "for tracking")', 'POST /tracing'],
  ['a filter parameter named idempotency_key', 'POST /filter'],
  ['a readOnly field described as de-duping', 'POST /read-only'],
  ['a boolean that "prevents duplicate requests"', 'POST /not-string'],
  ['a request-id-like name two objects down (a sub-resource), no description', 'POST /deep-suggestive'],
  [
    'ids of other resources that end like a request id (pullRequestId, SpotFleetRequestId, operationId)',
    'POST /other-request',
  ],
];

describe('near misses are not carriers and raise no finding', () => {
  it.each(misses)('%s (%s)', (_, key) => {
    const e = entryOf(plan, key);
    expect(e.mechanism).not.toBe('native-key');
    expect(e.carrier).toBeNull();
    expect(findingsOf(plan, key)).toEqual([]);
  });
});

const possible: [string, string, string, string][] = [
  ['a client order id with no description', 'POST /possible-name', 'body', 'client_order_id'],
  [
    'a request id whose reuse is an error (rejected, not replayed)',
    'POST /possible-reject',
    'header',
    'X-Acme-Request-Id',
  ],
  [
    '"not sent multiple times" on a field that identifies a resource',
    'POST /possible-resource',
    'body',
    'transactionId',
  ],
  [
    'duplicates of a thing (not of requests) on a name that suggests no request id',
    'POST /possible-thing-duplicates',
    'body',
    'gatewayOrderRef',
  ],
];

describe('borderline evidence: possible_key_carrier with a paste-ready override', () => {
  it.each(possible)('%s (%s)', (_, key, where, name) => {
    const e = entryOf(plan, key);
    expect(e.mechanism).toBe('fail-closed');
    const [f, ...more] = findingsOf(plan, key);
    expect(more).toEqual([]);
    expect(f).toMatchObject({ severity: 'info' });
    expect(f.message).toContain(`${where} ${name} may carry an idempotency key`);
    const json = /add to idemgen\.config\.json: (\{.*\})$/.exec(f.hint ?? '')?.[1];
    expect(json).toBeDefined();
    // Pasted into the config, the override makes it OP-1 with that carrier, and the finding goes away.
    const pasted = classify(apis, resolveConfig(JSON.parse(json!) as UserConfig));
    expect(entryOf(pasted, key)).toMatchObject({ mechanism: 'native-key', carrier: { in: where, name } });
    expect(findingsOf(pasted, key)).toEqual([]);
  });
});
