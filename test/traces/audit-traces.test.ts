/**
 * `idemgen audit --traces` on a recorded run: an agent's turns call a real MCP server (SDK client and
 * server over InMemoryTransport) whose tool is wrapped by withIdempotency on SQLite; the runtime's spans
 * are recorded by the OpenTelemetry SDK and written as OTLP JSON lines. Injected repeats: a retry with
 * the same key (absorbed), a re-send with a new key in the same turn (reached the API twice), and the
 * same message from the next turn (Case 2). Also the plain JSONL format and bad input.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../packages/runtime/src/store/sqlite.js';
import { withIdempotency } from '../../packages/runtime/src/mcp/index.js';
import { runCli } from '../helpers/cli.js';
import { migratedSqliteFile } from '../runtime/mcp/sqlite-db.js';
import { startRecording, toOtlpJsonLines } from './otlp-recorder.js';

const dir = mkdtempSync(join(tmpdir(), 'idemgen-traces-'));
let sent = 0;

async function agent(): Promise<{ client: Client; close: () => Promise<void> }> {
  const store = createSqliteStore({ filename: migratedSqliteFile('idemgen-traces').file });
  const server = new Server({ name: 'mail', version: '1.0.0' }, { capabilities: { tools: {} } });
  // windowMs 0: every call goes through the store, so every call has its span.
  const send = withIdempotency(
    async (): Promise<CallToolResult> => ({ content: [{ type: 'text', text: `sent #${++sent}` }] }),
    { store, operation: 'tool:send_message', windowMs: 0 },
  );
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => send(req.params.arguments ?? {}, extra));
  const [c, s] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'agent', version: '1.0.0' });
  await Promise.all([server.connect(s), client.connect(c)]);
  return {
    client,
    close: async () => {
      await client.close();
      await store.close();
    },
  };
}

describe('audit --traces on an OTLP recording of MCP tool calls', () => {
  let file: string;
  beforeAll(async () => {
    const rec = startRecording();
    const { client, close } = await agent();
    const tracer = trace.getTracer('test-agent');
    const turn = (n: number, body: () => Promise<void>) =>
      tracer.startActiveSpan(
        `invoke_agent turn ${n}`,
        { attributes: { 'gen_ai.conversation.id': 'conv-1' } },
        async (span) => {
          await body();
          span.end();
        },
      );
    const call = (args: Record<string, unknown>) => client.callTool({ name: 'send_message', arguments: args });
    const msg = { channel: 'ops', text: 'deploy done' };
    await turn(1, async () => {
      await call({ ...msg, idempotency_key: 'key-turn1-aaaaaaaaaaaa' });
      await call({ ...msg, idempotency_key: 'key-turn1-aaaaaaaaaaaa' }); // a retry with the same key: absorbed
      await call({ ...msg, idempotency_key: 'key-turn1-bbbbbbbbbbbb' }); // re-sent with a new key: reaches the API
      await call({ channel: 'ops', text: 'something else', idempotency_key: 'key-turn1-cccccccccccc' });
    });
    await turn(2, async () => {
      await call({ ...msg, idempotency_key: 'key-turn2-dddddddddddd' }); // Case 2: next turn, same message, new intent
    });
    await turn(3, async () => {
      await call({ channel: 'dev', text: 'hello', idempotency_key: 'key-turn3-eeeeeeeeeeee' });
      await call({ ...msg, idempotency_key: 'key-turn1-aaaaaaaaaaaa' }); // a late retry of turn 1's call: absorbed
    });
    await close();
    const spans = rec.exporter.getFinishedSpans();
    rec.stop();
    file = join(dir, 'run.otlp.jsonl');
    writeFileSync(file, toOtlpJsonLines(spans));
  });
  afterAll(() => trace.disable());

  it('finds the same-turn repeat and the cross-turn ones, and says which were absorbed', async () => {
    expect(sent).toBe(5); // what really reached the "API"
    const out = await runCli(['audit', '--traces', file, '--format', 'json'], dir);
    expect(out.code).toBe(1); // a same-turn repeat reached the API twice
    const audit = JSON.parse(out.stdout) as {
      calls: number;
      groups: {
        kind: string;
        tool: string;
        conversation: string;
        reachedApi: number;
        absorbedCount: number;
        calls: { outcome: string; absorbed: boolean }[];
      }[];
    };
    expect(audit.calls).toBe(7);
    const summary = audit.groups.map((g) => [
      g.kind,
      g.tool,
      g.conversation,
      g.calls.length,
      g.absorbedCount,
      g.reachedApi,
    ]);
    expect(summary).toEqual([
      ['same-turn', 'send_message', 'conv-1', 3, 1, 2],
      ['cross-turn', 'send_message', 'conv-1', 3, 1, 2],
    ]);
    expect(audit.groups[0]?.calls.map((c) => c.outcome)).toEqual(['executed', 'replay', 'executed']);
    expect(audit.groups[1]?.calls.map((c) => c.outcome)).toEqual(['executed', 'executed', 'replay']);
    const text = await runCli(['audit', '--traces', file], dir);
    expect(text.stdout).toMatch(
      /same-turn {2}send_message {2}conversation conv-1 {2}turn \w+: 3 calls, 1 absorbed, REACHED THE API 2×/,
    );
    expect(text.stdout).toMatch(/replay {2}absorbed \(replay, nothing sent\)/);
  });

  it('a shorter window drops nothing within a turn; cross-turn repeats outside it are not reported', async () => {
    const out = JSON.parse(
      (await runCli(['audit', '--traces', file, '--format', 'json', '--window', '0.000001'], dir)).stdout,
    );
    expect(out.groups.map((g: { kind: string }) => g.kind)).toEqual(['same-turn']);
  });
});

describe('audit --traces on a JSONL of tool calls', () => {
  it('groups by conversation and turn; every repeat absorbed → exit 0', async () => {
    const f = join(dir, 'calls.jsonl');
    const t0 = Date.parse('2026-11-30T10:00:00Z');
    const line = (turn: number, dt: number, args: unknown, outcome?: string) =>
      JSON.stringify({
        conversation: 'c9',
        turn,
        tool: 'create_invoice',
        args,
        time: new Date(t0 + dt).toISOString(),
        outcome,
      });
    writeFileSync(
      f,
      [
        line(1, 0, { amount: 10, idempotency_key: 'k1' }, 'executed'),
        line(1, 800, { amount: 10, idempotency_key: 'k1' }, 'replay'),
        line(2, 90_000, { amount: 10, idempotency_key: 'k2' }, 'executed'), // 90 s later: outside the window
        '',
      ].join('\n'),
    );
    const out = await runCli(['audit', '--traces', f], dir);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/more than once in a turn \(a repeat a key would stop\): 1/);
    expect(out.stdout).toMatch(/within the window \(maybe a new intent, docs\/concepts\.md#repeated-intent\): 0/);
    expect(out.stdout).toMatch(/Every repeat was absorbed/);
  });

  it('a bad line is a diagnostic with the line number and exit 2', async () => {
    const f = join(dir, 'bad.jsonl');
    writeFileSync(f, `${JSON.stringify({ tool: 'x', time: 1 })}\n{not json\n${JSON.stringify({ time: 1 })}\n`);
    const out = await runCli(['audit', '--traces', f], dir);
    expect(out.code).toBe(2);
    expect(out.stderr).toMatch(/trace_line_invalid/);
    expect(out.stderr).toMatch(/bad\.jsonl[\s\S]*2:1 +error +Not JSON/);
    expect(out.stderr).toMatch(/"tool" \(the tool name\) is missing/);
  });
});
