import { describe, expect, it } from 'vitest';
import type { Operation } from '../../src/ir/types.js';
import { classifyOne, codes, http, rules, tool } from './helpers.js';

// Step 0 (DESIGN §4): each case names the rule it proves.
const cases: { rule: string; op: Operation; effect: 'read' | 'write'; config?: object }[] = [
  { rule: 'http_safe_method', op: http('get', '/things'), effect: 'read' },
  { rule: 'http_safe_method', op: http('head', '/things'), effect: 'read' },
  { rule: 'http_safe_method', op: http('options', '/things'), effect: 'read' },
  { rule: 'http_safe_method', op: http('trace', '/things'), effect: 'read' },
  { rule: 'http_unsafe_method', op: http('post', '/things'), effect: 'write' },
  { rule: 'http_unsafe_method', op: http('put', '/things/{id}'), effect: 'write' },
  { rule: 'http_unsafe_method', op: http('patch', '/things/{id}'), effect: 'write' },
  { rule: 'http_unsafe_method', op: http('delete', '/things/{id}'), effect: 'write' },
  {
    rule: 'extension_exempt',
    op: http('post', '/search', { extensions: { 'x-idempotency': 'exempt' } }),
    effect: 'read',
  },
  {
    rule: 'extension_exempt',
    op: http('post', '/graphql', { pathExtensions: { 'x-idempotency': 'exempt' } }),
    effect: 'read',
  },
  {
    rule: 'override_effect',
    op: http('post', '/query'),
    effect: 'read',
    config: { overrides: { 'POST /query': { effect: 'read' } } },
  },
  {
    rule: 'override_effect',
    op: tool('get_secret'),
    effect: 'write',
    config: { overrides: { 'tool:get_secret': { effect: 'write' } } },
  },
  { rule: 'tool_read_only_hint', op: tool('read_file', { annotations: { readOnlyHint: true } }), effect: 'read' },
  {
    rule: 'tool_read_only_hint',
    op: tool('trigger-long-running-operation', { annotations: { readOnlyHint: true } }),
    effect: 'read',
  },
  {
    rule: 'tool_not_read_only_hint',
    op: tool('git_checkout', { annotations: { readOnlyHint: false } }),
    effect: 'write',
  },
  { rule: 'tool_destructive_hint', op: tool('purge', { annotations: { destructiveHint: true } }), effect: 'write' },
  { rule: 'tool_write_verb', op: tool('send_email', { format: 'anthropic' }), effect: 'write' },
  { rule: 'tool_write_verb', op: tool('slack_post_message'), effect: 'write' },
  { rule: 'tool_write_verb', op: tool('createInvoice', { format: 'openai-chat' }), effect: 'write' },
  { rule: 'tool_write_verb', op: tool('create_or_update_file'), effect: 'write' },
  { rule: 'tool_read_verb', op: tool('get_weather', { format: 'openai-chat' }), effect: 'read' },
  { rule: 'tool_read_verb', op: tool('getCustomerInfo', { format: 'anthropic' }), effect: 'read' },
  { rule: 'tool_read_verb', op: tool('search_repositories'), effect: 'read' },
  { rule: 'tool_read_verb', op: tool('list-things', { format: 'openai-responses' }), effect: 'read' },
  { rule: 'mcp_default_not_read_only', op: tool('gzip_thing'), effect: 'write' },
  { rule: 'tool_default_write', op: tool('calculator', { format: 'anthropic' }), effect: 'write' },
  // docs/decisions/0036-tool-read-verbs-stay-as-they-are.md: print_/format/extract/classify are not read verbs for
  // tools.
  { rule: 'tool_default_write', op: tool('print_summary', { format: 'anthropic' }), effect: 'write' },
  { rule: 'mcp_default_not_read_only', op: tool('format_disk'), effect: 'write' },
  { rule: 'tool_default_write', op: tool('extract_entities', { format: 'anthropic' }), effect: 'write' },
  { rule: 'tool_read_verb', op: tool('summarize_text', { format: 'anthropic' }), effect: 'read' },
];

describe('step 0: effect', () => {
  it.each(cases)('$rule: $op.key → $effect', ({ rule, op, effect, config }) => {
    const { entry } = classifyOne(op, { config });
    expect(entry.effect).toBe(effect);
    expect(entry.effectReasons.map((r) => r.rule)).toContain(rule);
    if (effect === 'read') {
      expect(entry).toMatchObject({ class: 'read-only', mechanism: 'none', carrier: null, keyStrategy: null });
      expect(entry.toolBoundary).toBeUndefined();
    } else {
      expect(entry.class).not.toBe('read-only');
    }
  });

  it('ambiguous_tool_effect: a read name annotated destructive is a write with a finding', () => {
    const { entry, plan } = classifyOne(tool('get_and_purge', { annotations: { destructiveHint: true } }));
    expect(entry.effect).toBe('write');
    expect(codes(plan)).toContain('ambiguous_tool_effect');
    expect(plan.diagnostics.find((d) => d.code === 'ambiguous_tool_effect')).toMatchObject({
      file: 'tools.json',
      pointer: '/tools/0/annotations/destructiveHint',
    });
  });

  it('ambiguous_tool_effect: readOnlyHint and destructiveHint together fail safe to write', () => {
    const { entry, plan } = classifyOne(
      tool('list_files', { annotations: { readOnlyHint: true, destructiveHint: true } }),
    );
    expect(entry.effect).toBe('write');
    expect(codes(plan)).toContain('ambiguous_tool_effect');
  });

  it('write verbs beat read verbs found later in the name; readOnlyHint settles only what no verb contradicts', () => {
    expect(classifyOne(tool('update_search_index')).entry.effect).toBe('write');
    expect(classifyOne(tool('cache_stats', { annotations: { readOnlyHint: true } })).entry.effect).toBe('read');
  });

  it.each([
    ['delete_card', {}, 'tool_write_verb'],
    ['card', { description: 'Deletes a saved card.' }, 'tool_description_verb'],
    ['payoutTool', { description: 'Create a payout' }, 'tool_description_verb'],
    [
      'payout',
      {
        inputSchema: {
          type: 'object',
          properties: { amount: { type: 'number' }, idempotency_key: { type: 'string' } },
        },
      },
      'tool_schema_key',
    ],
  ] as const)('a hint never makes a write look safe: %s with readOnlyHint: true is a write', (name, extra, rule) => {
    const { entry } = classifyOne(tool(name, { ...extra, annotations: { readOnlyHint: true } }));
    expect(entry.effect).toBe('write');
    expect(entry.effectReasons.map((r) => r.rule)).toEqual([rule, 'tool_read_only_hint_contradicted']);
    expect(entry.effectReasons[1].pointer).toBe('/tools/0/annotations/readOnlyHint');
  });

  it('readOnlyHint stands against a soft verb or a description that only mentions a write', () => {
    for (const op of [
      tool('trigger-long-running-operation', { annotations: { readOnlyHint: true } }),
      tool('payout_status', {
        description: 'Get the status of a payout created earlier',
        annotations: { readOnlyHint: true },
      }),
    ])
      expect(classifyOne(op).entry.effect).toBe('read');
  });

  it('config.heuristics extends the verb lists', () => {
    const op = tool('frobnicate_widget', { format: 'openai-chat' });
    expect(classifyOne(op).entry.effectReasons[0].rule).toBe('tool_default_write');
    const read = classifyOne(op, { config: { heuristics: { readVerbs: ['frobnicate'] } } }).entry;
    expect(read.effect).toBe('read');
    expect(rules(read)).toContain('tool_read_verb');
  });
});
