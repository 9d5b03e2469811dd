import type { Plan } from '../../../src/classify/types.js';
import type { ApiModel, HttpMethod, HttpOperation } from '../../../src/ir/types.js';
import { entry, httpOp } from '../../helpers/plan.js';

/** A small hand-built API: one read, one OP-5 (charge ↔ refund), one OP-4 (owned `orders` table), one OP-1. */
function op(method: HttpMethod, path: string, operationId: string): HttpOperation {
  return httpOp(method, path, {
    name: operationId,
    operationId,
    servers: ['https://api.example.test'],
    source: { file: 'specs/shop.openapi.yaml', pointer: `/paths/${path.replace(/\//g, '~1')}/${method}` },
  });
}

export function buildShopPlan(options: { ownedTable?: string; withSaga?: boolean } = {}): Plan {
  const charge = op('post', '/charges', 'createCharge');
  const refund = op('post', '/charges/{id}/refund', 'refundCharge');
  const orders = op('post', '/orders', 'createOrder');
  const list = op('get', '/orders', 'listOrders');
  const operations = [list, charge, refund, orders].sort((a, b) => (a.key < b.key ? -1 : 1));
  const api: ApiModel = {
    id: 'shop',
    file: 'specs/shop.openapi.yaml',
    format: 'openapi3.1',
    servers: [],
    operations,
    events: [],
    root: {},
  };
  const byKey = new Map([
    [list.key, entry(list, 'none')],
    [charge.key, entry(charge, options.withSaga === false ? 'fail-closed' : 'saga', { compensation: refund.key })],
    [refund.key, entry(refund, 'fail-closed')],
    [orders.key, entry(orders, 'unique-insert', { ownedTable: options.ownedTable ?? 'orders' })],
  ]);
  return { apis: [{ api, entries: operations.map((o) => byKey.get(o.key)!) }], diagnostics: [] };
}
