import { describe, expect, it } from 'vitest';
import type { KeyStrategy, Mechanism, PlanEntry } from '../../src/classify/types.js';
import { entry as planEntry, toolOp } from '../helpers/plan.js';
import { KEY_NOT_RESUME_SAFE, checkResumeSafety } from '../../src/classify/resume-safety.js';

/** An MCP tool entry at `/tools/<index>` of tools/agent.json with the given mechanism and key strategy. */
function entry(tool: string, mechanism: Mechanism, keyStrategy: KeyStrategy | null, index = 0): PlanEntry {
  const operation = toolOp(
    tool,
    { type: 'object' },
    { source: { file: 'tools/agent.json', pointer: `/tools/${index}` } },
  );
  return planEntry(operation, mechanism, { class: mechanism === 'none' ? 'read-only' : 'irreversible', keyStrategy });
}

describe('checkResumeSafety (key_not_resume_safe)', () => {
  const table: { name: string; entry: PlanEntry; stateFields?: string[]; severity: string | null; says?: RegExp }[] = [
    {
      name: 'intent key from a checkpointed scope',
      entry: entry('send_email', 'fail-closed', 'intent'),
      severity: null,
    },
    { name: 'read-only tool', entry: entry('get_user', 'none', null), severity: null },
    {
      name: 'content key on a content-addressed write (OP-3)',
      entry: entry('put_blob', 'content-address', 'content'),
      severity: null,
    },
    {
      name: 'content key on a send swallows a second, wanted send (a user who asks twice)',
      entry: entry('send_email', 'fail-closed', 'content'),
      severity: 'warning',
      says: /swallows a new intent/,
    },
    {
      name: 'caller key whose slot the state declares',
      entry: entry('send_email', 'dedup-table', 'caller'),
      stateFields: ['messages', 'send_email_idempotency_key'],
      severity: null,
    },
    {
      name: 'caller key with no persisted slot in the declared state',
      entry: entry('send_email', 'dedup-table', 'caller'),
      stateFields: ['messages', 'email_key'],
      severity: 'warning',
      says: /no persisted state slot "send_email_idempotency_key"/,
    },
    {
      name: 'caller key, state unknown: a reminder',
      entry: entry('send_email', 'dedup-table', 'caller'),
      severity: 'info',
      says: /send_email_idempotency_key/,
    },
    {
      name: 'write without any key strategy',
      entry: entry('charge_card', 'fail-closed', null),
      severity: 'error',
      says: /without a key strategy/,
    },
  ];

  for (const row of table) {
    it(row.name, () => {
      const out = checkResumeSafety([row.entry], { stateFields: row.stateFields });
      if (row.severity === null) {
        expect(out).toEqual([]);
        return;
      }
      expect(out).toHaveLength(1);
      expect(out[0]).toMatchObject({
        code: KEY_NOT_RESUME_SAFE,
        severity: row.severity,
        file: 'tools/agent.json',
        pointer: row.entry.operation.source.pointer,
      });
      expect(out[0]!.message).toMatch(row.says!);
      expect(out[0]!.hint).toMatch(/docs\/concepts\.md#(checkpoint|good)-keys/);
    });
  }

  it('keeps entry order and honours a severity override or off', () => {
    const entries = [entry('send_sms', 'fail-closed', null, 0), entry('send_email', 'fail-closed', 'content', 1)];
    const out = checkResumeSafety(entries, { severities: { key_not_resume_safe: 'info' } });
    expect(out.map((d) => [d.pointer, d.severity])).toEqual([
      ['/tools/0', 'info'],
      ['/tools/1', 'info'],
    ]);
    expect(checkResumeSafety(entries, { severities: { key_not_resume_safe: 'off' } })).toEqual([]);
  });
});
