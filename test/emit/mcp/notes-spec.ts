/**
 * A small API for the MCP end-to-end tests, served by the counting fault server: a fail-closed write
 * under an account path (the account id is a server-side argument), a read, and a bearer scheme.
 */
export const ACCOUNT = `AC${'0123456789abcdef'.repeat(2)}`;

export const NOTES_SPEC = {
  openapi: '3.1.0',
  info: { title: 'Notes API', version: '1.0.0' },
  servers: [{ url: 'https://notes.example.com' }],
  security: [{ bearerAuth: [] }],
  components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
  paths: {
    '/accounts/{AccountSid}/messages': {
      parameters: [
        { name: 'AccountSid', in: 'path', required: true, schema: { type: 'string', pattern: '^AC[0-9a-f]{32}$' } },
      ],
      post: {
        operationId: 'createMessage',
        tags: ['Messages'],
        summary: 'Send a message',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['to', 'body'],
                properties: { to: { type: 'string' }, body: { type: 'string' }, note: { type: 'string' } },
              },
            },
          },
        },
        responses: { '200': { description: 'sent', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
      get: {
        operationId: 'listMessages',
        tags: ['Messages'],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
  },
} as const;

/** A Twilio-like 400 the fault server answers before any effect. */
export const BAD_NUMBER = {
  kind: 'reject' as const,
  status: 400,
  body: { code: 21211, message: "The 'To' number 12 is not a valid phone number.", status: 400 },
};
