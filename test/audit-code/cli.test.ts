import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';
import { sarifValidator } from '../emit/report/sarif-validate.js';
import { FIXTURES } from './helpers.js';

interface Report {
  diagnostics: { code: string; severity: string; file: string; line: number | null; col: number | null }[];
  totals: { sources: Record<string, { sources: number; operations: number; diagnostics: Record<string, number> }> };
}

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-code-'));
  cpSync(FIXTURES, join(dir, 'agent'), { recursive: true });
  cpSync(join(ROOT, 'specs'), join(dir, 'specs'), { recursive: true });
  return dir;
}

describe('idemgen audit on agent code', () => {
  test('SARIF of a code audit validates against SARIF 2.1.0 and carries file/line/column regions', async () => {
    const dir = project();
    const run = await runCli(['audit', 'agent/**/positive.ts', '--format', 'sarif', '--fail-on', 'none'], dir);
    expect(run.code).toBe(0);
    const log = JSON.parse(run.stdout);
    const check = sarifValidator()(log);
    expect(check.errors).toBe('No errors');
    expect(check.valid).toBe(true);
    const results = log.runs[0].results as {
      ruleId: string;
      locations: {
        physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } };
      }[];
    }[];
    expect(new Set(results.map((r) => r.ruleId))).toEqual(
      new Set([
        'key_generated_in_tool',
        'time_varying_key',
        'tool_call_id_as_key',
        'side_effect_before_interrupt',
        'sdk_write_without_key',
        'write_tool_without_key',
      ]),
    );
    for (const r of results) {
      const loc = r.locations[0].physicalLocation;
      expect(loc.artifactLocation.uri).toMatch(/^agent\/[a-z_]+\/positive\.ts$/);
      expect(loc.region.startLine).toBeGreaterThan(0);
      expect(loc.region.startColumn).toBeGreaterThan(0);
    }
    const rules = log.runs[0].tool.driver.rules as { id: string; fullDescription: { text: string } }[];
    expect(rules.find((r) => r.id === 'side_effect_before_interrupt')?.fullDescription.text).toMatch(/interrupt\(\)/);
  });

  test('exit 1 on error findings by default; text shows file:line:col', async () => {
    const dir = project();
    const run = await runCli(['audit', 'agent/time_varying_key/positive.ts'], dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /agent\/time_varying_key\/positive\.ts\n\s+location\s+severity\s+message\s+rule\n\s+8:63\s+error\s+idempotency key idempotencyKey depends on the clock/,
    );
  });

  test('a tsconfig.json selects the files; specs, tool lists and code share one report with totals per kind', async () => {
    const dir = project();
    writeFileSync(
      join(dir, 'tsconfig.json'),
      '{\n  // comments are fine\n  "compilerOptions": { "strict": true },\n  "include": ["agent/**/*.ts"],\n}\n',
    );
    const run = await runCli(['audit', 'specs', 'tsconfig.json', '--format', 'json', '--fail-on', 'none'], dir);
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as Report;
    const s = report.totals.sources;
    expect(s.spec.sources).toBe(3);
    expect(s.tools.sources).toBe(1);
    expect(s.code.sources).toBe(13);
    expect(s.code.operations).toBe(0);
    expect(s.code.diagnostics.error + s.code.diagnostics.warning).toBe(
      report.diagnostics.filter((d) => d.file.startsWith('agent/')).length,
    );
    expect(s.spec.operations).toBeGreaterThan(5);
    const md = await runCli(['audit', 'specs', 'tsconfig.json', '--format', 'markdown', '--fail-on', 'none'], dir);
    expect(md.stdout).toMatch(/\| code \| 13 \| 0 \|/);
    expect(md.stdout).toMatch(/`write_tool_without_key` \| \d+ warnings \| warning \|/);
  });

  test('a glob that matches nothing, and a broken tsconfig, are input errors (exit 2)', async () => {
    const dir = project();
    const none = await runCli(['audit', 'agent/**/*.nothing.ts'], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no file matches/);
    writeFileSync(join(dir, 'tsconfig.bad.json'), '{ "compilerOptions": { "strict": ');
    const bad = await runCli(['audit', 'tsconfig.bad.json'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/invalid_tsconfig/);
  });

  test('a folder is audited for code (and its specs); a folder with nothing to audit is an input error (exit 2)', async () => {
    const dir = project();
    cpSync(join(ROOT, 'test', 'fixtures', 'code-audit-cases'), join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src', 'package.json'), '{ "name": "agent", "type": "module" }\n');
    const run = await runCli(['audit', 'src', '--format', 'json', '--fail-on', 'error'], dir);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.totals.sources.code.sources).toBe(21);
    expect(
      report.diagnostics.some(
        (d) => d.code === 'side_effect_before_interrupt' && d.file === 'src/sendgrid/positive.ts',
      ),
    ).toBe(true);
    expect(report.diagnostics.filter((d) => d.file.endsWith('near-miss.ts'))).toEqual([]);
    // specs/ still goes to the loader alone; a folder of specs and code gives both.
    const both = await runCli(['audit', '.', '--format', 'json', '--fail-on', 'none'], dir);
    expect(both.code).toBe(0);
    const totals = (JSON.parse(both.stdout) as Report).totals.sources;
    expect(totals.spec.sources).toBe(3);
    // agent/ adds its 13 .ts files and the .cjs/.mjs positives a tsconfig's include left out.
    expect(totals.code.sources).toBe(21 + 15);
    mkdirSync(join(dir, 'notes', 'deeper'), { recursive: true });
    writeFileSync(join(dir, 'notes', 'deeper', 'todo.txt'), 'nothing here\n');
    const empty = await runCli(['audit', 'notes'], dir);
    expect(empty.code).toBe(2);
    // One line: the folder, what audit reads, the code.
    expect(empty.stderr.trim()).toMatch(
      /^notes\/ holds nothing to audit: expected agent code \(\.ts, .*\) or specs and tool lists \(\.json, \.yaml, \.yml\) \(unrecognized_input\)$/,
    );
    expect(empty.stderr).not.toMatch(/\n\s+at /);
  });

  test('config severities apply to code rules ("off" silences one)', async () => {
    const dir = project();
    writeFileSync(
      join(dir, 'idemgen.config.json'),
      JSON.stringify({ severities: { time_varying_key: 'off', sdk_write_without_key: 'error' } }),
    );
    const run = await runCli(
      [
        'audit',
        'agent/time_varying_key/positive.ts',
        'agent/sdk_write_without_key/positive.ts',
        '--format',
        'json',
        '--fail-on',
        'none',
      ],
      dir,
    );
    const report = JSON.parse(run.stdout) as Report;
    expect(report.diagnostics.some((d) => d.code === 'time_varying_key')).toBe(false);
    expect(
      report.diagnostics.filter((d) => d.code === 'sdk_write_without_key').every((d) => d.severity === 'error'),
    ).toBe(true);
  });
});
