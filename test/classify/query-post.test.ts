import { describe, expect, it } from 'vitest';
import type { HttpOperation } from '../../src/ir/types.js';
import { classifyOne, codes, http } from './helpers.js';

const post = (path: string, operationId?: string, extra: Partial<HttpOperation> = {}): HttpOperation =>
  http('post', path, { ...(operationId !== undefined ? { operationId } : {}), ...extra });

// Rule probable_query_post (DESIGN §4 step 0): a POST named like a read is flagged, never reclassified.
const flagged: { name: string; op: HttpOperation; verb: string }[] = [
  { name: 'Plaid accounts/get', op: post('/accounts/get', 'accountsGet'), verb: 'get' },
  { name: 'Plaid accounts/balance/get', op: post('/accounts/balance/get', 'accountsBalanceGet'), verb: 'get' },
  { name: 'Square catalog search', op: post('/v2/catalog/search', 'SearchCatalogObjects'), verb: 'search' },
  {
    name: 'Square orders batch-retrieve',
    op: post('/v2/orders/batch-retrieve', 'BatchRetrieveOrders'),
    verb: 'retrieve',
  },
  {
    name: 'Square orders calculate (noun "order" in the operationId)',
    op: post('/v2/orders/calculate', 'CalculateOrder'),
    verb: 'calculate',
  },
  { name: 'GitHub markdown render (operationId)', op: post('/markdown', 'markdown/render'), verb: 'render' },
  { name: 'SendGrid recipients search', op: post('/contactdb/recipients/search'), verb: 'search' },
  { name: 'Google custom method', op: post('/v1/{parent}/devices:findByIdentifier'), verb: 'find' },
  { name: 'AWS target action', op: post('/#X-Amz-Target=Svc_2015.DescribeThings'), verb: 'describe' },
  { name: 'count as first word', op: post('/V1.0/Things/query/count'), verb: 'count' },
];

const notFlagged: { name: string; op: HttpOperation }[] = [
  { name: 'get-or-create has a write verb', op: post('/messages/get-or-create') },
  { name: 'getAndDelete operationId has a write verb after "and"', op: post('/queue/items', 'getAndDelete') },
  { name: 'create in the operationId', op: post('/things/query', 'CreateNamedQuery') },
  { name: 'plain create', op: post('/v1/charges', 'PostCharges') },
  { name: '"count" as a last word is a noun', op: post('/#X-Amz-Target=Kinesis.DecreaseShardCount') },
  { name: '"read" marks as read (not a query verb)', op: post('/notifications/read') },
  { name: '"verify" consumes an OTP (not a query verb)', op: post('/v1/verify-otp') },
  { name: 'export starts a job (not a query verb)', op: post('/reports/export') },
  { name: 'PUT is never a query POST', op: http('put', '/things/search') },
];

describe('probable_query_post', () => {
  it.each(flagged)('probable_query_post: $name', ({ op, verb }) => {
    const { entry, plan } = classifyOne(op);
    expect(entry.effect).toBe('write');
    const d = plan.diagnostics.find((x) => x.code === 'probable_query_post');
    expect(d).toMatchObject({ severity: 'warning', pointer: op.source.pointer });
    expect(d!.message).toContain(`"${verb}"`);
    expect(d!.hint).toContain(`overrides: { "${op.key}": { effect: read } }`);
    const w = plan.diagnostics.find((x) => x.code === 'write_without_key_mechanism');
    expect(w?.hint).toContain('overrides[…].effect: read');
  });

  it.each(notFlagged)('probable_query_post (none): $name', ({ op }) => {
    const { plan } = classifyOne(op);
    expect(codes(plan)).not.toContain('probable_query_post');
    const w = plan.diagnostics.find((x) => x.code === 'write_without_key_mechanism');
    expect(w?.hint ?? '').not.toContain('effect: read');
  });

  it('probable_query_post: info when the API takes a native key (OP-1)', () => {
    const op = post('/accounts/get', undefined, {
      parameters: [
        { name: 'Idempotency-Key', in: 'header', required: false, pointer: '/p', schema: { type: 'string' } },
      ],
    });
    const { entry, plan } = classifyOne(op);
    expect(entry.mechanism).toBe('native-key');
    expect(plan.diagnostics.find((d) => d.code === 'probable_query_post')?.severity).toBe('info');
  });

  it('override_effect: the pasted override makes it a read and silences the finding', () => {
    const { entry, plan } = classifyOne(post('/accounts/get'), {
      config: { overrides: { 'POST /accounts/get': { effect: 'read' } } },
    });
    expect(entry.effect).toBe('read');
    expect(codes(plan)).not.toContain('probable_query_post');
  });

  it('override_effect: an explicit effect: write is a decision, not a finding', () => {
    const { plan } = classifyOne(post('/accounts/get'), {
      config: { overrides: { 'POST /accounts/get': { effect: 'write' } } },
    });
    expect(codes(plan)).not.toContain('probable_query_post');
  });
});
