import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classify } from '../../src/classify/index.js';
import type { ApiPlan, PlanEntry } from '../../src/classify/types.js';
import { resolveConfig } from '../../src/config/types.js';
import { renderAudit } from '../../src/emit/report/index.js';
import { buildApiModel } from '../../src/ir/index.js';
import type { HttpOperation } from '../../src/ir/types.js';
import { loadInputs } from '../../src/load/index.js';
import { sarifValidator } from '../emit/report/sarif-validate.js';

// The real vendor specs and tool lists in the shared corpus, classified with the default config.
import { CORPUS } from '../helpers/corpus.js';

async function planOf(kind: 'openapi' | 'tools', file: string): Promise<ApiPlan> {
  const loaded = await loadInputs([path.join(CORPUS, kind, file)], { cwd: CORPUS });
  const plan = classify(
    loaded.docs.map((d) => buildApiModel(d).api),
    resolveConfig(),
  );
  expect(plan.apis).toHaveLength(1);
  return plan.apis[0];
}

const entry = (p: ApiPlan, key: string): PlanEntry => {
  const e = p.entries.find((x) => x.operation.key === key);
  if (!e) throw new Error(`${key} not in ${p.api.file}`);
  return e;
};
const dist = (p: ApiPlan): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const e of p.entries) out[e.class] = (out[e.class] ?? 0) + 1;
  return out;
};

describe('Stripe: every POST is native-key OP-1 through the provider registry', () => {
  it.each(['stripe-spec3.2022-04-12.json', 'stripe-spec3.2023-09-12.yaml'])('%s', async (file) => {
    const p = await planOf('openapi', file);
    const posts = p.entries.filter((e) => (e.operation as HttpOperation).method === 'post');
    expect(posts.length).toBeGreaterThan(180);
    for (const e of posts) {
      expect(e).toMatchObject({
        class: 'native-key',
        mechanism: 'native-key',
        keyStrategy: 'caller',
        ttlSeconds: 86400,
        carrier: { in: 'header', name: 'Idempotency-Key', maxLength: 255 },
      });
      expect(e.reasons.map((r) => r.rule)).toEqual(['native_provider']);
      expect(e.reasons[0].detail).toContain('docs.stripe.com');
    }
    // GET is read; DELETE is not keyed by Stripe ("no effect") but repeats harmlessly by method: method-idempotent,
    // except a DELETE whose description opens with "Cancels" (a subscription) or with no id in its path.
    for (const e of p.entries.filter((x) => (x.operation as HttpOperation).method === 'get'))
      expect(e.class).toBe('read-only');
    const deletes = p.entries.filter((x) => (x.operation as HttpOperation).method === 'delete');
    for (const e of deletes) expect(e).toMatchObject({ methodIdempotent: true });
    const kept = deletes.filter((e) => e.mechanism !== 'method-idempotent');
    expect(kept.map((e) => e.mechanism)).toEqual(kept.map(() => 'fail-closed'));
    // `DELETE /v1/account` (2022 spec) names no id in its path: not an addressed resource by our rule.
    const expected = [
      'DELETE /v1/account',
      'DELETE /v1/customers/{customer}/subscriptions/{subscription_exposed_id}',
      'DELETE /v1/subscriptions/{subscription_exposed_id}',
    ];
    for (const e of kept) expect(expected).toContain(e.operation.key);
    expect(deletes.length - kept.length).toBeGreaterThan(20);
  });

  it('the Stripe audit as SARIF validates against the SARIF 2.1.0 schema', async () => {
    const loaded = await loadInputs([path.join(CORPUS, 'openapi', 'stripe-spec3.2023-09-12.yaml')], { cwd: CORPUS });
    const plan = classify(
      loaded.docs.map((d) => buildApiModel(d).api),
      resolveConfig(),
    );
    plan.diagnostics = plan.diagnostics.map((d) => ({
      ...d,
      ...(d.pointer !== undefined ? loaded.docs[0].locate(d.pointer) : {}),
    }));
    const log = JSON.parse(renderAudit(plan, 'sarif'));
    const check = sarifValidator()(log);
    expect(check.errors).toBe('No errors');
    expect(log.runs[0].results.length).toBe(plan.diagnostics.length);
    expect(log.runs[0].results[0].locations[0].physicalLocation.region.startLine).toBeGreaterThan(1);
  });
});

describe('Twilio 2010: Payments take the IdempotencyKey form field', () => {
  it('native via the declared form field', async () => {
    const p = await planOf('openapi', 'twilio_api_v2010.json');
    for (const key of [
      'POST /2010-04-01/Accounts/{AccountSid}/Calls/{CallSid}/Payments.json',
      'POST /2010-04-01/Accounts/{AccountSid}/Calls/{CallSid}/Payments/{Sid}.json',
    ]) {
      const e = entry(p, key);
      expect(e).toMatchObject({
        class: 'native-key',
        mechanism: 'native-key',
        carrier: { in: 'form', name: 'IdempotencyKey' },
        keyStrategy: 'caller',
      });
      expect(e.reasons[0]).toMatchObject({ rule: 'native_field' });
      expect(e.reasons[0].pointer).toMatch(/IdempotencyKey$/);
    }
    // Sending an SMS has no key, no inverse: fail-closed.
    expect(entry(p, 'POST /2010-04-01/Accounts/{AccountSid}/Messages.json')).toMatchObject({
      class: 'irreversible',
      mechanism: 'fail-closed',
    });
  });
});

describe('GitHub: compensatable where an inverse exists, otherwise irreversible', () => {
  it('repo webhooks create ↔ delete; merging a pull request has no inverse', async () => {
    const p = await planOf('openapi', 'github-api.github.com.2020-07-30.json');
    const hook = entry(p, 'POST /repos/{owner}/{repo}/hooks');
    expect(hook).toMatchObject({
      class: 'compensatable',
      mechanism: 'saga',
      compensation: 'DELETE /repos/{owner}/{repo}/hooks/{hook_id}',
      keyStrategy: 'intent',
    });
    expect(hook.reasons[0].rule).toBe('compensation_inferred');
    const merge = entry(p, 'PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge');
    expect(merge).toMatchObject({ class: 'irreversible', mechanism: 'fail-closed', methodIdempotent: true });
    expect(merge.reasons.map((r) => r.rule)).toEqual(['irreversible', 'method_idempotent', 'verification_natural_key']);
    // Afterwards, GET …/pulls/{pull_number}/merge (204 merged, 404 not) tells whether an unknown merge happened.
    expect(merge.reasons.find((r) => r.rule === 'verification_natural_key')?.detail).toMatch(
      /GET \/repos\/\{owner\}\/\{repo\}\/pulls\/\{pull_number\}\/merge/,
    );
    const d = dist(p);
    expect(d['read-only']).toBe(336);
    expect(d['native-key'] ?? 0).toBe(0);
    expect(d.compensatable).toBeGreaterThan(20);
    expect(d.irreversible).toBeGreaterThan(100);
  });
});

describe('tool lists', () => {
  it('mcp-filesystem: read_file read-only; write_file and move_file write behind OP-7', async () => {
    const p = await planOf('tools', 'mcp-filesystem.tools.json');
    expect(entry(p, 'tool:read_file')).toMatchObject({ effect: 'read', class: 'read-only', mechanism: 'none' });
    expect(entry(p, 'tool:read_file').effectReasons[0].rule).toBe('tool_read_only_hint');
    for (const key of ['tool:write_file', 'tool:move_file']) {
      const e = entry(p, key);
      expect(e).toMatchObject({
        effect: 'write',
        class: 'irreversible',
        mechanism: 'fail-closed',
        toolBoundary: 'tool-dedup',
        keyStrategy: 'intent',
      });
      expect(e.effectReasons.map((r) => r.rule)).toEqual(
        expect.arrayContaining(['tool_destructive_hint', 'tool_write_verb']),
      );
    }
    expect(dist(p)['read-only']).toBe(10);
  });

  // readonly_count from the corpus MANIFEST (tools with readOnlyHint: true).
  it.each([
    ['mcp-github-official-readonly.tools.json', 58, 58],
    ['mcp-memory.tools.json', 3, 9],
    ['mcp-git.tools.json', 7, 12],
    ['mcp-everything.tools.json', 10, 19],
    ['mcp-time.tools.json', 2, 2],
  ])('%s: %i of %i read-only, as annotated', async (file, reads, total) => {
    const p = await planOf('tools', file);
    expect(p.entries).toHaveLength(total);
    expect(dist(p)['read-only'] ?? 0).toBe(reads);
  });

  it('mcp-memory: create_entities is undone by delete_entities (OP-5)', async () => {
    const p = await planOf('tools', 'mcp-memory.tools.json');
    expect(entry(p, 'tool:create_entities')).toMatchObject({ mechanism: 'saga', compensation: 'tool:delete_entities' });
    expect(entry(p, 'tool:create_relations')).toMatchObject({
      mechanism: 'saga',
      compensation: 'tool:delete_relations',
    });
  });

  it('unannotated tools fall back on their names (github-archived, slack-archived, cookbook)', async () => {
    const gh = await planOf('tools', 'mcp-github-archived.tools.json');
    expect(entry(gh, 'tool:get_file_contents').effect).toBe('read');
    expect(entry(gh, 'tool:create_issue').effect).toBe('write');
    expect(entry(gh, 'tool:merge_pull_request')).toMatchObject({ class: 'irreversible' });
    const slack = await planOf('tools', 'mcp-slack-archived.tools.json');
    expect(entry(slack, 'tool:slack_post_message')).toMatchObject({ effect: 'write', mechanism: 'fail-closed' });
    const cook = await planOf('tools', 'anthropic-cookbook.tools.json');
    expect(entry(cook, 'tool:get_customer_info').effect).toBe('read');
    expect(entry(cook, 'tool:cancel_order')).toMatchObject({ effect: 'write', toolBoundary: 'tool-dedup' });
  });
});
