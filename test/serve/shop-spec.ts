/** A small shop API for the code-mode tests: two writes on their own paths and a read. */
const json = (schema: Record<string, unknown>) => ({
  required: true,
  content: { 'application/json': { schema } },
});
const ok = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } };

export const SHOP_SPEC = {
  openapi: '3.1.0',
  info: { title: 'Shop API', version: '1.0.0' },
  servers: [{ url: 'https://shop.example.com' }],
  paths: {
    '/orders': {
      post: {
        operationId: 'createOrder',
        summary: 'Create an order',
        requestBody: json({ type: 'object', required: ['item'], properties: { item: { type: 'string' } } }),
        responses: ok,
      },
    },
    '/shipments': {
      post: {
        operationId: 'createShipment',
        summary: 'Ship an order',
        requestBody: json({ type: 'object', required: ['order'], properties: { order: { type: 'string' } } }),
        responses: ok,
      },
    },
    '/status': { get: { operationId: 'getStatus', summary: 'Warehouse status', responses: ok } },
  },
};
