import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { emitTools } from '../../../src/emit/tools/index.js';
import { compileError, createAjv } from './ajv.js';
import { validateUserConfig } from '../../../src/config/validate.js';
import { checkStrictName, checkStrictSchema } from './openai-strict.js';
import { entry, planOf, toolOp } from '../../helpers/plan.js';

type Obj = Record<string, any>;

function files(plan: Parameters<typeof emitTools>[0], user = {}): { out: Record<string, any>; diagnostics: any[] } {
  const res = emitTools(plan, resolveConfig({ tools: { formats: ['mcp', 'openai', 'anthropic'] }, ...user }));
  const out: Record<string, any> = {};
  for (const f of res.files) {
    expect(f.contents.endsWith('}\n') || f.contents.endsWith(']\n')).toBe(true);
    out[f.path] = JSON.parse(f.contents);
  }
  return { out, diagnostics: res.diagnostics };
}

const sendSlack = toolOp('send_slack_message', {
  type: 'object',
  properties: { channel: { type: 'string' }, text: { type: 'string', minLength: 1 }, thread_ts: { type: 'string' } },
  required: ['channel', 'text'],
});
const listChannels = toolOp('list_channels', {
  type: 'object',
  properties: { limit: { type: 'integer', default: 100 } },
});

describe('emitTools: the idempotency key (SOP OP-7, Case 4)', () => {
  const plan = planOf('slack', [entry(listChannels, 'none'), entry(sendSlack, 'fail-closed', { ttlSeconds: 86_400 })]);
  const { out } = files(plan);

  it('adds a required idempotency_key with the window to write tools in all three forms', () => {
    const mcp = out['tools/mcp/slack.tools.json'].tools as Obj[];
    const send = mcp.find((t) => t.name === 'send_slack_message') as Obj;
    expect(send.inputSchema.required).toEqual(['channel', 'text', 'idempotency_key']);
    const key = send.inputSchema.properties.idempotency_key;
    expect(key).toMatchObject({ type: 'string', minLength: 16, maxLength: 255, pattern: '^[!-~]+$' });
    expect(key.description).toContain('24 hours');
    expect(key.description).toContain('This server deduplicates it for');
    expect(key.description).toContain('the same key on every retry, also after a timeout');
    const anthropic = (out['tools/anthropic/slack.tools.json'] as Obj[]).find(
      (t) => t.name === 'send_slack_message',
    ) as Obj;
    expect(anthropic.input_schema.required).toContain('idempotency_key');
    const openai = (out['tools/openai/slack.tools.json'] as Obj[]).find(
      (t) => t.function.name === 'send_slack_message',
    ) as Obj;
    expect(openai.function.strict).toBe(true);
    expect(openai.function.parameters.properties.idempotency_key).toMatchObject({
      type: 'string',
      pattern: '^[!-~]{16,255}$',
    });
    expect(openai.function.parameters.required).toContain('idempotency_key');
  });

  it('gives read-only tools no key and annotations from the classification', () => {
    const mcp = out['tools/mcp/slack.tools.json'].tools as Obj[];
    const list = mcp.find((t) => t.name === 'list_channels') as Obj;
    expect(list.inputSchema.properties.idempotency_key).toBeUndefined();
    expect(list.annotations).toEqual({ readOnlyHint: true, openWorldHint: true });
    const send = mcp.find((t) => t.name === 'send_slack_message') as Obj;
    expect(send.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });
  });

  it('makes optional properties nullable and every object closed in the OpenAI form', () => {
    const openai = (out['tools/openai/slack.tools.json'] as Obj[]).map((t) => t.function);
    for (const fn of openai) {
      expect(checkStrictName(fn.name)).toEqual([]);
      expect(checkStrictSchema(fn.parameters)).toEqual([]);
    }
    const send = openai.find((f) => f.name === 'send_slack_message');
    expect(send.parameters.properties.thread_ts).toEqual({ type: ['string', 'null'] });
    expect(send.parameters.properties.text).toEqual({ type: 'string' });
  });

  it('writes reverse maps and compiles every schema with Ajv 2020', () => {
    expect(out['tools/openai/slack.names.json']).toEqual({
      list_channels: 'tool:list_channels',
      send_slack_message: 'tool:send_slack_message',
    });
    const ajv = createAjv();
    for (const t of out['tools/mcp/slack.tools.json'].tools as Obj[])
      expect(compileError(ajv, t.inputSchema)).toBeUndefined();
  });
});

describe('tools.formats: which tool files are written', () => {
  const plan = planOf('slack', [entry(listChannels, 'none'), entry(sendSlack, 'fail-closed', { ttlSeconds: 86_400 })]);

  it('by default only the MCP file and its names', () => {
    const paths = emitTools(plan, resolveConfig()).files.map((f) => f.path);
    expect(paths.sort()).toEqual(['tools/mcp/slack.names.json', 'tools/mcp/slack.tools.json']);
  });

  it('the formats asked for, each with the same names (one naming rule)', () => {
    const res = emitTools(plan, resolveConfig({ tools: { formats: ['openai', 'anthropic'] } }));
    const paths = res.files.map((f) => f.path).sort();
    expect(paths).toEqual([
      'tools/anthropic/slack.names.json',
      'tools/anthropic/slack.tools.json',
      'tools/openai/slack.names.json',
      'tools/openai/slack.tools.json',
    ]);
    const names = (p: string) => res.files.find((f) => f.path === p)?.contents;
    expect(names('tools/openai/slack.names.json')).toBe(names('tools/anthropic/slack.names.json'));
  });

  it('an unknown format is a config error at its pointer', () => {
    const problems = validateUserConfig({ tools: { formats: ['mcp', 'gemini'] } }, 'idemgen.config.json');
    expect(problems.map((d) => [d.code, d.pointer, d.message])).toEqual([
      ['invalid_config', '/tools/formats/1', 'Unknown value "gemini"; expected one of mcp, openai, anthropic'],
    ]);
  });
});
