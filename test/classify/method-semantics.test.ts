/**
 * `method-idempotent`: which PUT/DELETE operations are safe to repeat by method semantics, which
 * the spec contradicts (they keep the old decision, with a finding), and how overrides force it either way.
 */
import { describe, expect, it } from 'vitest';
import type { UserConfig } from '../../src/config/types.js';
import type { HttpOperation, Operation } from '../../src/ir/types.js';
import { classifyOne, codes, http, rules, tool } from './helpers.js';

interface Row {
  name: string;
  op: Operation;
  others?: Operation[];
  config?: UserConfig;
  mechanism: string;
  /** The finding `method_semantics_contradicted` is reported (its message matches). */
  contradicted?: RegExp;
}

const described = (method: 'put' | 'delete', path: string, extra: Partial<HttpOperation>): HttpOperation =>
  http(method, path, extra);

const ROWS: Row[] = [
  { name: 'addressed DELETE', op: http('delete', '/v1/customers/{customer}'), mechanism: 'method-idempotent' },
  {
    name: 'addressed DELETE of a sub-resource',
    op: http('delete', '/v1/customers/{customer}/discount'),
    mechanism: 'method-idempotent',
  },
  { name: 'PUT at a client-chosen URI', op: http('put', '/buckets/{bucket}/policy'), mechanism: 'method-idempotent' },
  { name: 'PUT replacing an item by id', op: http('put', '/pets/{petId}'), mechanism: 'method-idempotent' },
  { name: 'collection DELETE (no path id)', op: http('delete', '/items'), mechanism: 'fail-closed' },
  { name: 'PUT with a server-chosen id (no path id)', op: http('put', '/items'), mechanism: 'fail-closed' },
  { name: 'POST never qualifies', op: http('post', '/items/{id}'), mechanism: 'fail-closed' },
  { name: 'PATCH is not in the rule', op: http('patch', '/items/{id}'), mechanism: 'fail-closed' },
  {
    name: 'action-path DELETE',
    op: http('delete', '/charges/{id}/cancel'),
    mechanism: 'fail-closed',
    contradicted: /last segment "cancel" names an action/,
  },
  {
    name: 'action-path PUT',
    op: http('put', '/x/{id}/trigger'),
    mechanism: 'fail-closed',
    contradicted: /"trigger" names an action/,
  },
  {
    name: 'action-path PUT, camelCase',
    op: http('put', '/invoices/{id}/sendReminder'),
    mechanism: 'fail-closed',
    contradicted: /names an action \(send\)/,
  },
  {
    name: 'a state sub-resource is not an action (PUT …/suspended)',
    op: http('put', '/app/installations/{installation_id}/suspended'),
    mechanism: 'method-idempotent',
  },
  {
    name: 'custom method',
    op: http('delete', '/v1/{name}:cancel'),
    mechanism: 'fail-closed',
    contradicted: /custom method ":cancel"/,
  },
  {
    name: 'summary opens with an action verb',
    op: described('delete', '/subscriptions/{id}', { description: '<p>Cancels a subscription immediately.</p>' }),
    mechanism: 'fail-closed',
    contradicted: /opens with the action "Cancels"/,
  },
  {
    name: 'description says each call creates',
    op: described('put', '/reports/{id}', { description: 'Each call creates a new report run and emails it.' }),
    mechanism: 'fail-closed',
    contradicted: /says "Each call creates"/,
  },
  {
    name: 'description says not idempotent',
    op: described('delete', '/tokens/{id}', { summary: 'Revoke a token (this endpoint is not idempotent)' }),
    mechanism: 'fail-closed',
    contradicted: /not idempotent/,
  },
  {
    name: 'a later "cancels" in the prose does not contradict',
    op: described('delete', '/customers/{id}', {
      description: 'Permanently deletes a customer. Also immediately cancels any active subscriptions.',
    }),
    mechanism: 'method-idempotent',
  },
  {
    name: 'override forces it on an action path',
    op: http('delete', '/charges/{id}/cancel'),
    config: { overrides: { 'DELETE /charges/{id}/cancel': { mechanism: 'method-idempotent' } } },
    mechanism: 'method-idempotent',
  },
  {
    name: 'override forces it away (back to the store)',
    op: http('delete', '/v1/customers/{customer}'),
    config: { overrides: { 'DELETE /v1/customers/{customer}': { mechanism: 'dedup-table' } } },
    mechanism: 'dedup-table',
  },
  {
    name: 'a native key still wins',
    op: http('put', '/things/{id}', {
      parameters: [
        { name: 'Idempotency-Key', in: 'header', required: false, pointer: '/p', schema: { type: 'string' } },
      ],
    }),
    mechanism: 'native-key',
  },
  {
    name: 'an addressed PUT with an inverse DELETE needs no saga',
    op: http('put', '/user/starred/{owner}/{repo}'),
    others: [http('delete', '/user/starred/{owner}/{repo}')],
    mechanism: 'method-idempotent',
  },
  {
    name: 'a content-addressed PUT to our own store keeps OP-3',
    op: http('put', '/blobs/{sha256}'),
    config: { owned: { paths: ['/blobs/**'] } },
    mechanism: 'content-address',
  },
  {
    name: 'our own store: an addressed DELETE needs no dedup row',
    op: http('delete', '/orders/{id}'),
    config: { owned: { paths: ['/orders/**'] } },
    mechanism: 'method-idempotent',
  },
];

describe('method-idempotent classification', () => {
  it.each(ROWS)('$name → $mechanism', ({ op, others, config, mechanism, contradicted }) => {
    const { entry, plan } = classifyOne(op, { ...(config === undefined ? {} : { config }), others: others ?? [] });
    expect(entry.effect).toBe('write');
    expect(entry.mechanism).toBe(mechanism);
    const finding = plan.diagnostics.find((d) => d.code === 'method_semantics_contradicted');
    if (contradicted === undefined) expect(finding).toBeUndefined();
    else {
      expect(finding?.message).toMatch(contradicted);
      expect(finding?.severity).toBe('info');
      expect(finding?.hint).toContain(`"mechanism": "method-idempotent"`);
    }
  });

  it('the audit row states the rule and the evidence; no key, no TTL, no store finding', () => {
    const { entry, plan } = classifyOne(http('delete', '/v1/customers/{customer}'));
    expect(entry).toMatchObject({
      class: 'method-idempotent',
      carrier: null,
      keyStrategy: null,
      methodIdempotent: true,
    });
    expect(entry.ttlSeconds).toBeUndefined();
    expect(entry.reasons[0]?.rule).toBe('method_semantics');
    expect(entry.reasons[0]?.detail).toMatch(
      /DELETE \/v1\/customers\/\{customer\} addresses the resource \{customer\}/,
    );
    expect(entry.reasons[0]?.detail).toMatch(/RFC 9110 §9\.2\.2.*404\/410 on that retry means done/);
    expect(rules(entry)).not.toContain('method_idempotent');
    expect(codes(plan)).toEqual([]);
  });

  it('an override cannot give a tool method semantics it lacks', () => {
    const t = tool('delete_card');
    const { entry, plan } = classifyOne(t, {
      config: { overrides: { delete_card: { mechanism: 'method-idempotent' } } },
    });
    expect(entry.mechanism).not.toBe('method-idempotent');
    expect(plan.diagnostics.find((d) => d.code === 'method_semantics_contradicted')).toMatchObject({
      severity: 'warning',
    });
  });
});
