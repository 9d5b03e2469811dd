import { describe, expect, it } from 'vitest';
import { classify } from '../../src/classify/index.js';
import { resolveConfig } from '../../src/config/types.js';
import type { Parameter } from '../../src/ir/types.js';
import { apiOf, classifyOne, codes, http, rules, tool } from './helpers.js';

const header = (name: string, maxLength?: number): Parameter => ({
  name,
  in: 'header',
  required: true,
  pointer: '/p',
  schema: maxLength === undefined ? { type: 'string' } : { type: 'string', maxLength },
});

describe('findings', () => {
  it('key_carrier_too_short: a 10-character key cannot hold enough entropy', () => {
    const { plan } = classifyOne(http('post', '/a', { parameters: [header('Idempotency-Key', 10)] }));
    const d = plan.diagnostics.find((x) => x.code === 'key_carrier_too_short');
    expect(d).toMatchObject({ severity: 'warning', file: 'spec.yaml', pointer: '/paths/~1a/post' });
    expect(d?.message).toMatch(/entropy/);
    expect(codes(classifyOne(http('post', '/a', { parameters: [header('Idempotency-Key', 16)] })).plan)).not.toContain(
      'key_carrier_too_short',
    );
  });

  it('tool_missing_required_key: side-effecting tool without, or with an optional, key argument', () => {
    expect(codes(classifyOne(tool('send_email')).plan)).toContain('tool_missing_required_key');
    const optional = tool('send_email', {
      inputSchema: { type: 'object', properties: { idempotency_key: { type: 'string' } } },
    });
    expect(classifyOne(optional).plan.diagnostics.find((d) => d.code === 'tool_missing_required_key')?.message).toMatch(
      /does not require/,
    );
    expect(codes(classifyOne(tool('get_email', { annotations: { readOnlyHint: true } })).plan)).toEqual([]);
  });

  it('write_without_key_mechanism: POST is a warning, a collection DELETE (idempotent by method) a note', () => {
    const post = classifyOne(http('post', '/sms')).plan.diagnostics[0];
    expect(post).toMatchObject({ code: 'write_without_key_mechanism', severity: 'warning' });
    // `DELETE /sms` addresses no one resource, so it is not `method-idempotent` (method-semantics.test.ts).
    const del = classifyOne(http('delete', '/sms'));
    expect(del.entry.methodIdempotent).toBe(true);
    expect(rules(del.entry)).toContain('method_idempotent');
    expect(del.plan.diagnostics[0]).toMatchObject({ code: 'write_without_key_mechanism', severity: 'info' });
  });

  it('config.severities overrides a rule and "off" removes it', () => {
    const op = http('post', '/sms');
    expect(
      classifyOne(op, { config: { severities: { write_without_key_mechanism: 'error' } } }).plan.diagnostics[0]
        .severity,
    ).toBe('error');
    expect(
      classifyOne(op, { config: { severities: { write_without_key_mechanism: 'off' } } }).plan.diagnostics,
    ).toEqual([]);
  });
});

describe('overrides, key strategy, TTL', () => {
  it('an override may spell the mechanism by its SOP number: OP-4 classifies as unique-insert, OP-5 as saga', () => {
    const one = classifyOne(http('post', '/orders', { operationId: 'createOrder' }), {
      config: { overrides: { createOrder: { mechanism: 'OP-4' as const, table: 'orders' } } },
    });
    expect(one.entry).toMatchObject({ class: 'owned-store', mechanism: 'unique-insert' });
    const two = classifyOne(http('post', '/orders', { operationId: 'createOrder' }), {
      config: { overrides: { createOrder: { mechanism: 'OP-5' as const } } },
    });
    expect(two.entry).toMatchObject({ class: 'compensatable', mechanism: 'saga' });
  });

  it('override mechanism OP-1 with a carrier, key strategy and TTL', () => {
    const config = {
      overrides: {
        sendSms: {
          mechanism: 'native-key' as const,
          carrier: { in: 'body' as const, name: 'dedup_id', maxLength: 64 },
          keyStrategy: 'content' as const,
          ttlSeconds: 300,
        },
      },
    };
    const { entry } = classifyOne(http('post', '/sms', { operationId: 'sendSms' }), { config });
    expect(entry).toMatchObject({
      class: 'native-key',
      mechanism: 'native-key',
      carrier: { in: 'body', name: 'dedup_id', maxLength: 64 },
      keyStrategy: 'content',
      ttlSeconds: 300,
    });
    expect(rules(entry)).toEqual(expect.arrayContaining(['override_mechanism', 'override_carrier']));
  });

  it('a per-operation timeoutMs reaches the entry on a read and a write, and nothing else gets one', () => {
    const config = { overrides: { exportAll: { timeoutMs: 120_000 }, createExport: { timeoutMs: 5000 } } };
    const read = classifyOne(http('get', '/exports', { operationId: 'exportAll' }), { config }).entry;
    const write = classifyOne(http('post', '/exports', { operationId: 'createExport' }), { config }).entry;
    const other = classifyOne(http('post', '/orders', { operationId: 'createOrder' }), { config }).entry;
    expect([read.timeoutMs, write.timeoutMs, other.timeoutMs]).toEqual([120_000, 5000, undefined]);
  });

  it('override by tool name and owned table', () => {
    const { entry } = classifyOne(tool('log_event'), {
      config: { overrides: { log_event: { mechanism: 'unique-insert', table: 'events' } } },
    });
    expect(entry).toMatchObject({
      class: 'owned-store',
      mechanism: 'unique-insert',
      ownedTable: 'events',
      toolBoundary: 'tool-dedup',
      keyStrategy: 'intent',
    });
  });

  it('TTL: config.defaultTtlSeconds for our stores, tools.defaultTtlSeconds for tools, none for an undeclared native TTL', () => {
    expect(classifyOne(http('post', '/sms'), { config: { defaultTtlSeconds: 7200 } }).entry.ttlSeconds).toBe(7200);
    expect(classifyOne(tool('send_sms'), { config: { tools: { defaultTtlSeconds: 600 } } }).entry.ttlSeconds).toBe(600);
    expect(
      classifyOne(http('post', '/a', { parameters: [header('Idempotency-Key')] })).entry.ttlSeconds,
    ).toBeUndefined();
  });

  it('is deterministic and pure: same input, same plan; the input is not mutated', () => {
    const ops = [http('post', '/b'), http('get', '/b'), tool('create_x'), tool('delete_x')];
    const api = apiOf(ops);
    const before = JSON.stringify(api);
    const a = classify([api], resolveConfig());
    const b = classify([api], resolveConfig());
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(JSON.stringify(api)).toBe(before);
    expect(a.apis[0].entries.map((e) => e.operation.key)).toEqual(api.operations.map((o) => o.key));
  });
});
