/** Dynamic-mode search and MCP listing of bindings (pure functions; the SDK round trip is in test/serve). */
import { describe, expect, it } from 'vitest';
import { searchTools } from '../../../packages/runtime/src/mcp/dynamic.js';
import { outcomeToResult } from '../../../packages/runtime/src/mcp/outcome.js';
import { listedTool, MECHANISM_META, WINDOW_META } from '../../../packages/runtime/src/mcp/tool-meta.js';
import type { ToolBinding } from '../../../packages/runtime/src/tools/types.js';

const binding = (
  name: string,
  operation: string,
  description: string,
  tags: string[] = [],
  write = false,
): ToolBinding => ({
  names: { mcp: name, openai: name, anthropic: name },
  operation,
  clientMethod: name,
  method: operation.split(' ')[0]!,
  path: operation.split(' ')[1]!,
  effect: write ? 'write' : 'read',
  mechanism: write ? 'fail-closed' : 'none',
  description,
  tags,
  routes: [],
  inputSchema: {
    type: 'object',
    properties: { AccountSid: { type: 'string' }, body: { type: 'object' } },
    required: ['AccountSid', 'body'],
  },
  ...(write ? { keyProperty: 'idempotency_key', ttlSeconds: 3600 } : {}),
});

const all = [
  binding('listInvoices', 'GET /v1/invoices', 'List invoices', ['Invoices']),
  binding('postCustomers', 'POST /v1/customers', 'Creates a new customer object.', ['Customers'], true),
  binding('getCustomersCustomer', 'GET /v1/customers/{customer}', 'Retrieves a Customer object.', ['Customers']),
  binding('postCharges', 'POST /v1/charges', 'Create a charge for a customer', ['Charges'], true),
];

describe('dynamic mode', () => {
  it('ranks name hits over tag hits over description hits, stable otherwise', () => {
    expect(searchTools(all, 'customers').map((h) => h.name)).toEqual([
      'postCustomers',
      'getCustomersCustomer',
      'postCharges',
    ]);
    expect(searchTools(all, 'create customer').map((h) => h.name)).toEqual([
      'postCustomers',
      'getCustomersCustomer',
      'postCharges',
    ]);
    expect(searchTools(all, 'charges').map((h) => h.name)).toEqual(['postCharges']);
    expect(searchTools(all, 'customers', 1)).toHaveLength(1);
    expect(searchTools(all, 'nothing-matches')).toEqual([]);
    expect(searchTools(all, 'invoices')[0]).toMatchObject({
      name: 'listInvoices',
      effect: 'read',
      mechanism: 'none',
      tags: ['Invoices'],
    });
  });

  it('lists a binding without server-side arguments and with its mechanism and window', () => {
    const tool = listedTool(all[1]!, new Set(['AccountSid']));
    expect(tool.inputSchema).toEqual({ type: 'object', properties: { body: { type: 'object' } }, required: ['body'] });
    expect(tool._meta).toMatchObject({ [MECHANISM_META]: 'fail-closed', [WINDOW_META]: 3600 });
    expect(all[1]!.inputSchema.required).toEqual(['AccountSid', 'body']);
  });

  it('turns outcomes into CallToolResults', () => {
    const ok = outcomeToResult({
      ok: true,
      result: { id: 1 },
      was_replay: true,
      original_called_at: '2026-01-01T00:00:00.000Z',
    });
    expect(ok.structuredContent).toEqual({
      result: { id: 1 },
      was_replay: true,
      original_called_at: '2026-01-01T00:00:00.000Z',
    });
    expect(ok._meta).toEqual({ 'idemgen/replay': { wasReplay: true, originalCalledAt: '2026-01-01T00:00:00.000Z' } });
    const error = {
      code: 'api_error',
      message: 'bad number',
      executed: 'no' as const,
      retry_same_key: true,
      status: 400,
    };
    const failed = outcomeToResult({ ok: false, error });
    expect(failed.isError).toBe(true);
    expect(failed.structuredContent).toEqual({ error });
    expect(JSON.stringify(failed.content)).toContain('bad number');
  });
});
