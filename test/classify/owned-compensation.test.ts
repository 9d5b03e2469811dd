import { describe, expect, it } from 'vitest';
import type { Mechanism } from '../../src/classify/types.js';
import type { Operation, ResponseSpec } from '../../src/ir/types.js';
import { classifyOne, codes, http, rules, tool } from './helpers.js';

const created: ResponseSpec = { status: '201', content: [], headers: [], pointer: '/r' };
const okBody: ResponseSpec = {
  status: '200',
  content: [{ mediaType: 'application/json', schema: { type: 'object' }, pointer: '/r' }],
  headers: [],
  pointer: '/r',
};
const blobPut = {
  required: true,
  pointer: '/rb',
  content: [{ mediaType: 'application/octet-stream', schema: { type: 'string', format: 'binary' }, pointer: '/rb/c' }],
};

// Step 2 (docs/concepts.md#mechanisms Step 2: content identity → OP-3, single-row insert → OP-4, else OP-2).
const owned: {
  rule: string;
  why: string;
  op: Operation;
  mechanism: Mechanism;
  config?: object;
  others?: Operation[];
  root?: unknown;
}[] = [
  {
    rule: 'owned_content_identity',
    why: 'content-addressed path {sha256}',
    op: http('put', '/artifacts/{sha256}'),
    mechanism: 'content-address',
    config: { owned: { hosts: ['api.example.com'] } },
  },
  {
    rule: 'owned_content_identity',
    why: 'PUT of an octet-stream body',
    op: http('put', '/files/{name}', { requestBody: blobPut }),
    mechanism: 'content-address',
    config: { owned: { paths: ['/files/**'] } },
  },
  {
    rule: 'owned_single_insert',
    why: 'POST answering 201',
    op: http('post', '/orders', { responses: [created] }),
    mechanism: 'unique-insert',
    config: { owned: { servers: ['https://api.example.com'] } },
  },
  {
    rule: 'owned_single_insert',
    why: 'POST to a collection returning the resource',
    op: http('post', '/notes', { responses: [okBody] }),
    mechanism: 'unique-insert',
    config: { owned: { tags: ['internal'] } },
    others: [http('get', '/notes/{id}')],
  },
  {
    rule: 'owned_multi_step',
    why: 'an action on a resource',
    op: http('post', '/orders/{id}/fulfil', { responses: [okBody] }),
    mechanism: 'dedup-table',
    root: { 'x-idempotency-owner': 'self' },
  },
  {
    rule: 'owned_multi_step',
    why: 'operation-level x-idempotency-owner: self',
    op: http('patch', '/orders/{id}', { extensions: { 'x-idempotency-owner': 'self' } }),
    mechanism: 'dedup-table',
  },
  {
    rule: 'owned_multi_step',
    why: 'a tool marked self-owned',
    op: tool('record_event', { extensions: { 'x-idempotency-owner': 'self' } }),
    mechanism: 'dedup-table',
  },
];

describe('step 2: owned store', () => {
  it.each(owned)('$rule: $why → $mechanism', ({ rule, op, mechanism, config, others, root }) => {
    const withTag = op.kind === 'http' ? { ...op, tags: ['internal'] } : op;
    const { entry } = classifyOne(withTag, { config, others, root });
    expect(entry).toMatchObject({ class: 'owned-store', mechanism, carrier: null });
    expect(rules(entry)).toEqual(expect.arrayContaining(['owned_store', rule]));
    expect(entry.keyStrategy).toBe(
      mechanism === 'content-address' ? 'content' : op.kind === 'tool' ? 'intent' : 'caller',
    );
    expect(entry.ttlSeconds).toBe(86400);
  });

  it('a host that is not ours is not owned', () => {
    const { entry } = classifyOne(http('post', '/orders', { responses: [created] }), {
      config: { owned: { hosts: ['other.example.com'] } },
    });
    expect(entry.class).toBe('irreversible');
  });

  it('a native key wins over ownership (step 1 before step 2)', () => {
    const op = http('post', '/v1/charges', { servers: ['https://api.stripe.com'] });
    expect(classifyOne(op, { config: { owned: { hosts: ['api.stripe.com'] } } }).entry.mechanism).toBe('native-key');
  });
});

// Step 3 (docs/concepts.md#mechanisms Step 1, third question → OP-5) and the fail-closed fallback.
const comp: { rule: string; why: string; op: Operation; others: Operation[]; compensation: string; config?: object }[] =
  [
    {
      rule: 'compensation_inferred',
      why: 'GitHub repo webhook create ↔ delete',
      op: http('post', '/repos/{owner}/{repo}/hooks'),
      others: [http('delete', '/repos/{owner}/{repo}/hooks/{hook_id}')],
      compensation: 'DELETE /repos/{owner}/{repo}/hooks/{hook_id}',
    },
    {
      rule: 'compensation_inferred',
      // (An addressed PUT such as `/user/starred/{owner}/{repo}` is method-idempotent first: method-semantics.test.ts.)
      why: 'PUT undone by DELETE of the same path',
      op: http('put', '/user/subscription'),
      others: [http('delete', '/user/subscription')],
      compensation: 'DELETE /user/subscription',
    },
    {
      rule: 'compensation_inferred',
      why: 'tool create_x ↔ delete_x',
      op: tool('create_entities'),
      others: [tool('delete_entities')],
      compensation: 'tool:delete_entities',
    },
    {
      rule: 'compensation_inferred',
      why: 'tool add_x ↔ remove_x',
      op: tool('add-label'),
      others: [tool('remove-label')],
      compensation: 'tool:remove-label',
    },
    {
      rule: 'compensation_inferred',
      why: 'tool charge ↔ refund',
      op: tool('charge_customer'),
      others: [tool('refund_customer')],
      compensation: 'tool:refund_customer',
    },
    {
      rule: 'compensation_inferred',
      why: 'camelCase createIssue ↔ deleteIssue',
      op: tool('createIssue'),
      others: [tool('deleteIssue')],
      compensation: 'tool:deleteIssue',
    },
    {
      rule: 'compensation_explicit',
      why: 'x-compensation by operationId',
      op: http('post', '/wires', { extensions: { 'x-compensation': 'recallWire' } }),
      others: [http('post', '/wires/{id}/recall', { operationId: 'recallWire' })],
      compensation: 'POST /wires/{id}/recall',
    },
    {
      rule: 'compensation_explicit',
      why: 'config override by key',
      op: http('post', '/devices/{id}/on'),
      others: [http('post', '/devices/{id}/off')],
      compensation: 'POST /devices/{id}/off',
      config: { overrides: { 'POST /devices/{id}/on': { compensation: 'POST /devices/{id}/off' } } },
    },
  ];

describe('step 3: compensatable', () => {
  it.each(comp)('$rule: $why', ({ rule, op, others, compensation, config }) => {
    const { entry } = classifyOne(op, { others, config });
    expect(entry).toMatchObject({
      class: 'compensatable',
      mechanism: 'saga',
      compensation,
      keyStrategy: 'intent',
      carrier: null,
    });
    expect(rules(entry)).toContain(rule);
  });

  it('send has no inverse: irreversible, fail-closed, with a finding', () => {
    const { entry, plan } = classifyOne(tool('send_sms'), { others: [tool('delete_sms')] });
    expect(entry).toMatchObject({ class: 'irreversible', mechanism: 'fail-closed', keyStrategy: 'intent' });
    expect(rules(entry)).toContain('irreversible');
    expect(codes(plan)).toContain('write_without_key_mechanism');
  });

  it('compensation_target_missing: x-compensation names an unknown operation', () => {
    const op = http('post', '/wires', { extensions: { 'x-compensation': 'nope' } });
    const { entry, plan } = classifyOne(op);
    expect(entry.mechanism).toBe('fail-closed');
    expect(plan.diagnostics.find((d) => d.code === 'compensation_target_missing')).toMatchObject({
      severity: 'error',
      pointer: '/paths/~1wires/post/x-compensation',
    });
  });

  it('compensation_target_missing: OP-5 forced by config with nothing to undo with', () => {
    const { entry, plan } = classifyOne(http('post', '/wires'), {
      config: { overrides: { 'POST /wires': { mechanism: 'saga' } } },
    });
    expect(entry.mechanism).toBe('saga');
    expect(codes(plan)).toContain('compensation_target_missing');
  });

  it('POST /things is not undone by DELETE /things/{id}/sub/{x} (one template segment only)', () => {
    const { entry } = classifyOne(http('post', '/things'), { others: [http('delete', '/things/{id}/sub/{x}')] });
    expect(entry.mechanism).toBe('fail-closed');
  });
});
