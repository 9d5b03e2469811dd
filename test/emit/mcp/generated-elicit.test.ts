/**
 * The generated MCP module asks the user through MCP elicitation like `idemgen serve`: an operation the config
 * marks `impact: financial` waits for a yes (no `IDEMGEN_CONFIRM` needed), and an unknown outcome answered
 * "did not happen" is released and runs once more. Real SDK client over stdio, the module's own `main()`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { bindingsTextOf } from '../../helpers/bindings-text.js';
import { ROOT } from '../../helpers/cli.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { migratedSqliteFile } from '../../runtime/mcp/sqlite-db.js';
import { call, errorOf } from './client.js';
import { generateModules } from './generate-modules.js';
import { ACCOUNT, NOTES_SPEC } from './notes-spec.js';

const TOOL = 'createMessage';
let generated: Awaited<ReturnType<typeof generateModules>>;
let api: FaultServer | undefined;
let client: Client | undefined;

beforeAll(async () => {
  generated = await generateModules('notes-impact', 'notes.json', NOTES_SPEC, {
    overrides: { createMessage: { impact: 'financial' } },
  });
});
afterEach(async () => {
  await client?.close();
  await api?.close();
});

async function connect(answers: ElicitResult[], asked: string[], env: Record<string, string> = {}): Promise<Client> {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (typeof v === 'string') childEnv[k] = v;
  const { file } = migratedSqliteFile('idemgen-gen-elicit');
  const c = new Client({ name: 'elicit-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  c.setRequestHandler(ElicitRequestSchema, async (req) => {
    asked.push((req.params as { message: string }).message);
    return answers.shift() ?? { action: 'cancel' };
  });
  await c.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', generated.paths.get('mcp/notes.server.gen.ts') as string],
      cwd: ROOT,
      env: {
        ...childEnv,
        IDEMGEN_STORE: `sqlite:${file}`,
        IDEMGEN_BASE_URL: (api as FaultServer).url,
        IDEMGEN_ARG_AccountSid: ACCOUNT,
        ...env,
      },
      stderr: 'pipe',
    }),
  );
  client = c;
  return c;
}

const message = (key: string) => ({ body: { to: '+15550100', body: 'hello' }, idempotency_key: key });

it('carries the override into the binding and asks before a financial write: no → 0 effects, yes → 1', async () => {
  expect(bindingsTextOf(generated.texts.get('handlers/notes.bindings.gen.ts')!)).toContain('"impact":"financial"');
  api = await startFaultServer();
  const asked: string[] = [];
  const c = await connect([{ action: 'decline' }, { action: 'accept', content: { confirm: true } }], asked);
  const no = await call(c, TOOL, message('generated-impact-key-01'));
  expect(errorOf(no)).toMatchObject({ code: 'confirmation_declined', executed: 'no' });
  expect(api.effects).toBe(0);
  const yes = await call(c, TOOL, message('generated-impact-key-01'));
  expect(yes.structuredContent).toMatchObject({ was_replay: false, result: { effect: 1 } });
  expect(api.effects).toBe(1);
  expect(asked).toHaveLength(2);
  expect(asked[0]).toMatch(/is a financial action that cannot be undone/);
}, 60_000);

it('puts an unknown outcome to the user: "did not happen" → released, run once, one effect', async () => {
  api = await startFaultServer();
  api.inject({ kind: 'drop' });
  const asked: string[] = [];
  const answers: ElicitResult[] = [
    { action: 'accept', content: { confirm: true } },
    { action: 'accept', content: { outcome: 'did_not_happen' } },
  ];
  const c = await connect(answers, asked);
  const r = await call(c, TOOL, message('generated-unknown-key-1'));
  expect(r.structuredContent).toMatchObject({ result: { effect: 1 }, resolved_by_user: { answer: 'did-not-happen' } });
  expect([api.requests.length, api.effects]).toEqual([2, 1]);
  expect(asked[1]).toMatch(/Did it happen\?/);
}, 60_000);
