/**
 * A compensatable API for the first-call tests: `POST /widgets` (no key of its own) has the inverse
 * `DELETE /widgets/{id}`, so its tool is an OP-5 saga and needs the saga table as well as the dedup table.
 */
export const WIDGETS_SPEC = {
  openapi: '3.0.3',
  info: { title: 'Widgets API', version: '1.0.0' },
  servers: [{ url: 'https://widgets.example.com' }],
  paths: {
    '/widgets': {
      post: {
        operationId: 'createWidget',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
            },
          },
        },
        responses: {
          '201': {
            description: 'created',
            content: {
              'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } },
            },
          },
        },
      },
    },
    '/widgets/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      delete: { operationId: 'deleteWidget', responses: { '204': { description: 'deleted' } } },
      get: {
        operationId: 'getWidget',
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
  },
} as const;
