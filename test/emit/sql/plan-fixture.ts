import type { Plan, PlanEntry } from '../../../src/classify/types.js';
import type { ApiModel, HttpMethod, HttpOperation } from '../../../src/ir/types.js';

/** A small hand-built API: one read, one OP-5 (charge ↔ refund), one OP-4 (owned `orders` table), one OP-1. */
function op(method: HttpMethod, path: string, operationId: string): HttpOperation {
  return {
    kind: 'http',
    key: `${method.toUpperCase()} ${path}`,
    name: operationId,
    operationId,
    method,
    path,
    deprecated: false,
    extensions: {},
    source: { file: 'specs/shop.openapi.yaml', pointer: `/paths/${path.replace(/\//g, '~1')}/${method}` },
    tags: [],
    parameters: [],
    responses: [],
    servers: ['https://api.example.test'],
    pathExtensions: {},
  };
}

function entry(operation: HttpOperation, mechanism: PlanEntry['mechanism'], extra: Partial<PlanEntry> = {}): PlanEntry {
  const read = mechanism === 'none';
  return {
    operation,
    effect: read ? 'read' : 'write',
    effectReasons: [],
    class: read ? 'read-only' : mechanism === 'OP-5' ? 'compensatable' : mechanism === 'OP-4' ? 'owned-store' : 'native-key',
    mechanism,
    carrier: null,
    keyStrategy: read ? null : 'intent',
    reasons: [],
    ...extra,
  };
}

export function buildShopPlan(options: { ownedTable?: string; withSaga?: boolean } = {}): Plan {
  const charge = op('post', '/charges', 'createCharge');
  const refund = op('post', '/charges/{id}/refund', 'refundCharge');
  const orders = op('post', '/orders', 'createOrder');
  const list = op('get', '/orders', 'listOrders');
  const operations = [list, charge, refund, orders].sort((a, b) => (a.key < b.key ? -1 : 1));
  const api: ApiModel = { id: 'shop', file: 'specs/shop.openapi.yaml', format: 'openapi3.1', servers: [], operations, events: [], root: {} };
  const byKey = new Map<string, PlanEntry>([
    [list.key, entry(list, 'none')],
    [charge.key, entry(charge, options.withSaga === false ? 'fail-closed' : 'OP-5', { compensation: refund.key })],
    [refund.key, entry(refund, 'fail-closed')],
    [orders.key, entry(orders, 'OP-4', { ownedTable: options.ownedTable ?? 'orders' })],
  ]);
  return { apis: [{ api, entries: operations.map((o) => byKey.get(o.key)!) }], diagnostics: [] };
}
