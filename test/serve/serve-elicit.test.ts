/**
 * Asking the user, through the real MCP SDK client over stdio and Streamable HTTP against
 * `idemgen serve` as a child process: `--confirm irreversible` asks before a fail-closed write runs (yes → one
 * effect; no, decline → none, and the key stays unclaimed), an unknown outcome is put to the user (recorded
 * as `reconcile --resolve` would), and a client without the elicitation capability gets today's answers.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { validateUserConfig } from '../../src/config/validate.js';
import { serveStdioFromEnv } from '../../packages/runtime/src/mcp/stdio-main.js';
import { needsConfirmation, type ConfirmPolicy } from '../../packages/runtime/src/tools/human.js';
import type { ToolBinding } from '../../packages/runtime/src/tools/types.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { call, errorOf, type Result } from '../emit/mcp/client.js';
import { ACCOUNT, NOTES_SPEC } from '../emit/mcp/notes-spec.js';
import { spawnServe, type ServeProcess } from './spawn-serve.js';

const TOOL = 'createMessage';
const dir = mkdtempSync(join(tmpdir(), 'idemgen-serve-elicit-'));
const spec = join(dir, 'notes.json');
writeFileSync(spec, JSON.stringify(NOTES_SPEC));

let api: FaultServer | undefined;
const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close().catch(() => undefined);
  await api?.close();
  api = undefined;
});

type Answer = ElicitResult | 'no-reply';
interface Asked {
  message: string;
  fields: string[];
}

/** A client that declares elicitation (or not) and answers each question with the next queued answer. */
function newClient(elicits: boolean, answers: Answer[], asked: Asked[]): Client {
  const client = new Client(
    { name: 'elicit-e2e', version: '1.0.0' },
    elicits ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  if (elicits)
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      const params = req.params as { message: string; requestedSchema?: { properties?: Record<string, unknown> } };
      asked.push({ message: params.message, fields: Object.keys(params.requestedSchema?.properties ?? {}) });
      const next = answers.shift() ?? { action: 'cancel' };
      if (next === 'no-reply') return new Promise<never>(() => undefined);
      return next;
    });
  return client;
}

type Kind = 'stdio' | 'http';

async function connect(kind: Kind, store: string, flags: string[], client: Client): Promise<Client> {
  const args = [spec, '--base-url', (api as FaultServer).url, '--arg', `AccountSid=${ACCOUNT}`, '--store', store];
  if (kind === 'stdio') {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) if (typeof v === 'string') env[k] = v;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'test/helpers/idemgen-src.ts', 'serve', ...args, ...flags],
      cwd: ROOT,
      env: { ...env, CI: 'true' },
      stderr: 'pipe',
    });
    await client.connect(transport);
    open.push(client);
    return client;
  }
  const served: ServeProcess = await spawnServe([...args, '--http', '0', ...flags]);
  open.push({ close: served.stop });
  await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
  open.push(client);
  return client;
}

const message = (key: string) => ({ body: { to: '+15550100', body: 'hello' }, idempotency_key: key });
const yes: Answer = { action: 'accept', content: { confirm: true } };
const said = (outcome: string): Answer => ({ action: 'accept', content: { outcome } });

function rowsOf(file: string): { key: string; status: string; resolution: string | null }[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare('SELECT idempotency_key AS key, status, resolution FROM idemgen_dedup ORDER BY key')
      .all() as never;
  } finally {
    db.close();
  }
}

let n = 0;
const storeFile = () => join(dir, `store-${++n}.sqlite`);
const structured = (r: Result) => r.structuredContent as Record<string, unknown>;

describe.each(['stdio', 'http'] as const)('serve over %s asks the user through MCP elicitation', (kind) => {
  it('--confirm irreversible: a yes runs the write once; a no runs nothing and leaves the key unclaimed', async () => {
    api = await startFaultServer();
    const file = storeFile();
    const asked: Asked[] = [];
    const answers: Answer[] = [yes, { action: 'accept', content: { confirm: false } }, { action: 'decline' }, yes];
    const client = await connect(
      kind,
      `sqlite:${file}`,
      ['--confirm', 'irreversible'],
      newClient(true, answers, asked),
    );

    const confirmed = await call(client, TOOL, message('elicit-confirm-key-0001'));
    expect(structured(confirmed)).toMatchObject({ was_replay: false, result: { effect: 1 } });
    expect(api.effects).toBe(1);
    expect(asked[0]?.fields).toEqual(['confirm']);
    expect(asked[0]?.message).toMatch(/cannot be undone/);
    expect(asked[0]?.message).toContain('POST /accounts/{AccountSid}/messages');

    // A same-key retry of the confirmed write is a replay: nobody is asked again.
    const replay = await call(client, TOOL, message('elicit-confirm-key-0001'));
    expect(structured(replay)).toMatchObject({ was_replay: true, result: { effect: 1 } });
    expect(asked).toHaveLength(1);

    const no = await call(client, TOOL, message('elicit-declined-key-0001'));
    expect(no.isError).toBe(true);
    expect(errorOf(no)).toMatchObject({ code: 'confirmation_declined', executed: 'no', retry_same_key: true });
    expect(no.content?.[0]).toMatchObject({ text: expect.stringMatching(/^Not executed: .*confirmation/) });
    const declined = await call(client, TOOL, message('elicit-declined-key-0001'));
    expect(errorOf(declined)).toMatchObject({ code: 'confirmation_declined', executed: 'no' });
    expect(api.effects).toBe(1);
    expect(rowsOf(file).map((r) => r.key)).toEqual(['elicit-confirm-key-0001']);

    // The refused key was never claimed: the same key, confirmed this time, runs once.
    const later = await call(client, TOOL, message('elicit-declined-key-0001'));
    expect(structured(later)).toMatchObject({ was_replay: false, result: { effect: 2 } });
    expect(api.effects).toBe(2);
    expect(asked).toHaveLength(4);
  }, 60_000);

  it('an unknown outcome answered "did not happen" is released and runs once more, recorded with who answered', async () => {
    api = await startFaultServer();
    api.inject({ kind: 'drop' }); // the connection dies after the request was sent, before anything commits
    const file = storeFile();
    const asked: Asked[] = [];
    const client = await connect(kind, `sqlite:${file}`, [], newClient(true, [said('did_not_happen')], asked));

    const r = await call(client, TOOL, message('elicit-unknown-key-0001'));
    expect(asked.map((a) => a.fields)).toEqual([['outcome']]);
    expect(asked[0]?.message).toMatch(/Did it happen\?/);
    expect(structured(r)).toMatchObject({
      was_replay: false,
      result: { effect: 1 },
      resolved_by_user: {
        answer: 'did-not-happen',
        by: expect.stringMatching(/via MCP elicitation \(elicit-e2e 1\.0\.0\)$/),
      },
    });
    expect(api.requests).toHaveLength(2);
    expect(api.effects).toBe(1);
    expect(rowsOf(file)).toMatchObject([{ key: 'elicit-unknown-key-0001', status: 'completed' }]);
  }, 60_000);

  it('an unknown outcome answered "happened" completes the row with no result body; "don\'t know" keeps it unknown', async () => {
    api = await startFaultServer();
    api.inject({ kind: 'reset' }, { kind: 'reset' }); // committed, then the connection dies
    const file = storeFile();
    const asked: Asked[] = [];
    const answers = [said('happened'), said('dont_know')];
    const client = await connect(kind, `sqlite:${file}`, [], newClient(true, answers, asked));

    const happened = await call(client, TOOL, message('elicit-happened-key-001'));
    expect(structured(happened)).toMatchObject({
      result: null,
      was_replay: true,
      resolved_by_user: { answer: 'happened' },
      note: expect.stringMatching(/no result body is known/),
    });
    const again = await call(client, TOOL, message('elicit-happened-key-001'));
    expect(structured(again)).toMatchObject({ result: null, was_replay: true });
    expect(api.effects).toBe(1);

    const unsure = await call(client, TOOL, message('elicit-dontknow-key-0001'));
    expect(errorOf(unsure)).toMatchObject({ code: 'idempotency_outcome_unknown', executed: 'unknown' });
    expect(unsure.content?.[0]).toMatchObject({ text: expect.stringMatching(/asked whether it happened/) });
    expect(api.effects).toBe(2);
    expect(asked).toHaveLength(2);

    const rows = rowsOf(file);
    expect(rows.map((r) => [r.key, r.status])).toEqual([
      ['elicit-dontknow-key-0001', 'pending'],
      ['elicit-happened-key-001', 'completed'],
    ]);
    const record = JSON.parse(rows[1]?.resolution ?? '{}') as Record<string, unknown>;
    expect(record).toMatchObject({ as: 'completed', by: expect.stringContaining('via MCP elicitation') });
    expect(record.reason).toMatch(/answered "happened"/);
  }, 60_000);

  it("a client without elicitation gets today's answers: no confirmation, an unknown outcome stays unknown", async () => {
    api = await startFaultServer();
    const file = storeFile();
    const client = await connect(kind, `sqlite:${file}`, ['--confirm', 'irreversible'], newClient(false, [], []));
    const ran = await call(client, TOOL, message('plain-client-key-00001'));
    expect(structured(ran)).toMatchObject({ was_replay: false, result: { effect: 1 } });
    api.inject({ kind: 'drop' });
    const lost = await call(client, TOOL, message('plain-client-key-00002'));
    expect(errorOf(lost)).toMatchObject({ code: 'idempotency_outcome_unknown', executed: 'unknown' });
    expect(lost.content?.[0]).not.toMatchObject({ text: expect.stringMatching(/asked/) });
    const retried = await call(client, TOOL, message('plain-client-key-00002'));
    expect(errorOf(retried)).toMatchObject({ code: 'idempotency_outcome_unknown', executed: 'unknown' });
    expect(api.requests).toHaveLength(2);
    expect(rowsOf(file).map((r) => r.status)).toEqual(['completed', 'pending']);
  }, 60_000);
});

describe('dynamic mode', () => {
  it.each(['stdio', 'http'] as const)(
    'invoke_tool asks the same question over %s',
    async (kind) => {
      api = await startFaultServer();
      const asked: Asked[] = [];
      const client = await connect(
        kind,
        `sqlite:${storeFile()}`,
        ['--dynamic', '--confirm', 'irreversible'],
        newClient(true, [{ action: 'cancel' }, yes], asked),
      );
      const args = { name: TOOL, arguments: message('dynamic-elicit-key-0001') };
      const cancelled = await call(client, 'invoke_tool', args);
      expect(errorOf(cancelled)).toMatchObject({ code: 'confirmation_declined', executed: 'no' });
      expect(api.effects).toBe(0);
      const ran = await call(client, 'invoke_tool', args);
      expect(structured(ran)).toMatchObject({ was_replay: false, result: { effect: 1 } });
      expect(api.effects).toBe(1);
      expect(asked).toHaveLength(2);
    },
    60_000,
  );
});

describe('confirmation settings', () => {
  it('config serve.confirm and overrides[…].impact are checked: a wrong value is invalid_config at its pointer', () => {
    const bad = validateUserConfig(
      { serve: { confirm: 'always' }, overrides: { createMessage: { impact: 'dangerous' } } },
      'idemgen.config.json',
    );
    expect(bad.map((d) => [d.code, d.pointer])).toEqual([
      ['invalid_config', '/serve/confirm'],
      ['invalid_config', '/overrides/createMessage/impact'],
    ]);
    const good = { serve: { confirm: 'irreversible' }, overrides: { createMessage: { impact: 'physical' } } };
    expect(validateUserConfig(good, 'c.json')).toEqual([]);
  });

  it('irreversible means fail-closed (or a write classify refused); a marked operation always asks', () => {
    const b = (mechanism: ToolBinding['mechanism'], extra: Partial<ToolBinding> = {}) =>
      ({ effect: 'write', mechanism, ...extra }) as ToolBinding;
    const asks = (policy: ConfirmPolicy) =>
      (['fail-closed', 'none', 'dedup-table', 'saga', 'native-key', 'method-idempotent'] as const).filter((m) =>
        needsConfirmation(b(m), policy),
      );
    expect(asks('off')).toEqual([]);
    expect(asks('irreversible')).toEqual(['fail-closed', 'none']);
    expect(asks('writes')).toHaveLength(6);
    expect(needsConfirmation(b('native-key', { impact: 'financial' }), 'off')).toBe(true);
    expect(needsConfirmation({ ...b('none'), effect: 'read' }, 'writes')).toBe(false);
  });

  it('serve --confirm with another value is a usage error (exit 2), and IDEMGEN_CONFIRM too', async () => {
    const r = await runCli(['serve', spec, '--confirm', 'always'], dir);
    expect([r.code, /confirm/.test(r.stderr), /\bat .*\.ts:\d+/.test(r.stderr)]).toEqual([2, true, false]);
    await expect(
      serveStdioFromEnv(
        { name: 'x', version: '1', authEnv: {}, register: () => undefined },
        { IDEMGEN_CONFIRM: 'yes' },
      ),
    ).rejects.toThrow(/IDEMGEN_CONFIRM="yes": expected off, irreversible, writes/);
  });
});
