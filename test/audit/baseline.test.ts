/**
 * `audit --baseline` / `check --baseline`: two versions of a small shop API (test/fixtures/baseline) with
 * one operation per change kind, compared from the spec, from a previous `audit --format json` and from
 * the compact report/audit.json `generate` writes; the change rules that fail a run, and each report form.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { changeKinds, diffAudits, parseChangeRules, type OperationState } from '../../src/emit/report/changes.js';
import { ROOT, runCli } from '../helpers/cli.js';

const BEFORE = join(ROOT, 'test/fixtures/baseline/before.yaml');
const AFTER = join(ROOT, 'test/fixtures/baseline/after.yaml');

/** Each operation of the fixture pair and the kinds its change falls under. */
const EXPECTED: Record<string, string[]> = {
  'POST /charges': ['fail-closed', 'lost-key'],
  'POST /widgets': ['fail-closed', 'lost-inverse'],
  'POST /orders': ['fail-closed', 'new-write'],
  'POST /payments': ['new-write'],
  'POST /notes': ['mechanism'],
  'POST /refunds': ['gained-key'],
  'DELETE /legacy/{id}': ['removed'],
  'DELETE /widgets/{id}': ['removed'],
};

interface ChangesJson {
  changes: {
    baseline: string;
    operations: { before: number; after: number; addedReads: number };
    counts: Record<string, number>;
    changes: { key: string; kinds: string[]; before: OperationState | null; after: OperationState | null }[];
  };
}

const scratch = (): string => mkdtempSync(join(tmpdir(), 'idemgen-baseline-'));

async function changesFrom(baseline: string, cwd = scratch()): Promise<ChangesJson['changes']> {
  const run = await runCli(['audit', AFTER, '--baseline', baseline, '--format', 'json', '--fail-on', 'none'], cwd);
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as ChangesJson).changes;
}

describe('audit --baseline', () => {
  test('a spec as the baseline: every change kind on its own operation, nothing else', async () => {
    const c = await changesFrom(BEFORE);
    expect(Object.fromEntries(c.changes.map((x) => [x.key, x.kinds]))).toEqual(EXPECTED);
    expect(c.operations).toEqual({ before: 7, after: 8, addedReads: 1 });
    expect(c.counts).toEqual({
      'fail-closed': 3,
      'lost-key': 1,
      'lost-inverse': 1,
      'new-write': 2,
      mechanism: 1,
      'gained-key': 1,
      removed: 2,
    });
    const charge = c.changes.find((x) => x.key === 'POST /charges')!;
    expect(charge.before).toMatchObject({ mechanism: 'native-key', carrier: 'header Idempotency-Key' });
    expect(charge.after).toMatchObject({ mechanism: 'fail-closed', carrier: null });
    const widget = c.changes.find((x) => x.key === 'POST /widgets')!;
    expect(widget.before).toMatchObject({ mechanism: 'saga', compensation: 'DELETE /widgets/{id}' });
  });

  test('a previous `audit --format json` and the compact report/audit.json give the same changes', async () => {
    const dir = scratch();
    const fromSpec = await changesFrom(BEFORE, dir);
    const full = await runCli(['audit', BEFORE, '-o', 'before.json', '--fail-on', 'none'], dir);
    expect(full.code, full.stderr).toBe(0);
    const fromAudit = await changesFrom(join(dir, 'before.json'), dir);
    expect(fromAudit.changes).toEqual(fromSpec.changes);
    const gen = await runCli(['generate', BEFORE, '--out', 'gen'], dir);
    expect(gen.code, gen.stderr).toBe(0);
    const fromReport = await changesFrom(join(dir, 'gen/report/audit.json'), dir);
    expect(fromReport.changes).toEqual(fromSpec.changes);
  });

  test('--fail-on-change exits 1 naming the rules and the counts that tripped; other kinds pass', async () => {
    const dir = scratch();
    const tripped = await runCli(
      ['audit', AFTER, '--baseline', BEFORE, '--fail-on', 'none', '--fail-on-change', 'fail-closed,lost-key'],
      dir,
    );
    expect(tripped.code).toBe(1);
    expect(tripped.stderr.trim().split('\n').at(-1)).toBe(
      '✖ --fail-on-change fail-closed,lost-key: fail-closed 3, lost-key 1',
    );
    const quiet = await runCli(
      ['audit', BEFORE, '--baseline', BEFORE, '--fail-on-change', 'any', '--fail-on', 'none'],
      dir,
    );
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toContain('no retry-relevant change (7 → 7 operations)');
    const bad = await runCli(['audit', AFTER, '--baseline', BEFORE, '--fail-on-change', 'lost-keys'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown "lost-keys"');
    const missing = await runCli(['audit', AFTER, '--baseline', join(dir, 'nope.json')], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('baseline_not_found');
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });

  test('text lists each group; Markdown has a summary table and folds each group', async () => {
    const dir = scratch();
    const text = await runCli(['audit', AFTER, '--baseline', BEFORE, '--fail-on', 'none'], dir);
    expect(text.stdout).toMatch(/^changes since .*before\.yaml: 8 operations changed/);
    expect(text.stdout).toMatch(
      / {2}lost-key \(1\): writes that lost their native key\n {4}POST \/charges +native-key → fail-closed; key header Idempotency-Key → none/,
    );
    const md = await runCli(['audit', AFTER, '--baseline', BEFORE, '--format', 'markdown', '--fail-on', 'none'], dir);
    expect(md.stdout).toContain('| `lost-inverse` | 1 | compensatable writes that lost their inverse |');
    expect(md.stdout).toContain('<details><summary>removed: 2 — removed operations</summary>');
    expect(md.stdout).toContain('| `POST /widgets` | saga → fail-closed; undo DELETE /widgets/{id} → none |');
    // The changes come before the per-file sections: in a PR comment they are what the reader came for.
    expect(md.stdout.indexOf('## Changes since')).toBeLessThan(md.stdout.indexOf('## Totals'));
  });
});

describe('check --baseline', () => {
  test('fails by default on fail-closed, lost-key and lost-inverse, and passes with --fail-on-change none', async () => {
    const dir = scratch();
    const gen = await runCli(['generate', AFTER, '--out', 'gen'], dir);
    expect(gen.code, gen.stderr).toBe(0);
    const fails = await runCli(['check', AFTER, '--out', 'gen', '--baseline', BEFORE], dir);
    expect(fails.code).toBe(1);
    expect(fails.stderr).toContain('lost-key (1)');
    expect(fails.stderr.trim().split('\n').at(-1)).toContain('is up to date');
    expect(fails.stderr).toContain(
      '✖ --fail-on-change fail-closed,lost-key,lost-inverse: fail-closed 3, lost-key 1, lost-inverse 1',
    );
    const passes = await runCli(
      ['check', AFTER, '--out', 'gen', '--baseline', BEFORE, '--fail-on-change', 'none'],
      dir,
    );
    expect(passes.code, passes.stderr).toBe(0);
  });
});

describe('change kinds', () => {
  const s = (mechanism: OperationState['mechanism'], extra: Partial<OperationState> = {}): OperationState => ({
    effect: mechanism === 'none' ? 'read' : 'write',
    class: 'irreversible',
    mechanism,
    carrier: mechanism === 'native-key' ? 'header Idempotency-Key' : null,
    compensation: null,
    ...extra,
  });

  test('a read that becomes a write without a mechanism fails closed; a carrier rename alone is no change', () => {
    expect(changeKinds(s('none'), s('fail-closed'))).toEqual(['fail-closed']);
    expect(changeKinds(s('none'), s('method-idempotent'))).toEqual(['mechanism']);
    expect(changeKinds(s('native-key'), s('native-key', { carrier: 'header Idempotency-Token' }))).toEqual([]);
    expect(changeKinds(s('fail-closed'), s('fail-closed'))).toEqual([]);
    expect(changeKinds(null, s('none'))).toEqual([]);
    expect(changeKinds(s('saga', { compensation: 'DELETE /a/{id}' }), s('saga'))).toEqual(['lost-inverse']);
  });

  test('operations are matched by key across differently named files; a repeated key is matched in order', () => {
    const op = (file: string, key: string, mechanism: OperationState['mechanism']) => ({
      key,
      name: key,
      source: { file, pointer: '' },
      effect: 'write' as const,
      effectReasons: [],
      class: 'irreversible' as const,
      mechanism,
      carrier: null,
      keyStrategy: null,
      reasons: [],
    });
    const totals = {} as never;
    const before = { operations: [op('v1.yaml', 'POST /a', 'fail-closed')], diagnostics: [], totals };
    const after = {
      operations: [op('v2.yaml', 'POST /a', 'fail-closed'), op('w.yaml', 'POST /a', 'fail-closed')],
      diagnostics: [],
      totals,
    };
    const d = diffAudits(before, after, 'v1.yaml');
    expect(d.changes.map((c) => [c.key, c.kinds])).toEqual([['POST /a #2', ['fail-closed', 'new-write']]]);
  });

  test('rules: a comma list, any and none; unknown words are returned apart', () => {
    expect(parseChangeRules('lost-key, fail-closed').kinds).toEqual(['fail-closed', 'lost-key']);
    expect(parseChangeRules('any').kinds).toHaveLength(7);
    expect(parseChangeRules('none')).toEqual({ kinds: [], unknown: [] });
    expect(parseChangeRules('lost-key,typo').unknown).toEqual(['typo']);
  });
});
