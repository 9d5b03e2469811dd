import { describe, expect, it } from 'vitest';
import { classify } from '../../../src/classify/index.js';
import type { Plan } from '../../../src/classify/types.js';
import { resolveConfig } from '../../../src/config/types.js';
import { diagnostic } from '../../../src/diagnostics/diagnostic.js';
import { renderAudit } from '../../../src/emit/report/index.js';
import { apiOf, http, tool } from '../../classify/helpers.js';
import { sarifValidator } from './sarif-validate.js';

/** A plan with classification findings plus load/IR and emitter diagnostics, as the CLI merges them. */
function mixedPlan(): Plan {
  const plan = classify(
    [
      apiOf([
        http('post', '/accounts/get'),
        http('get', '/accounts'),
        http('post', '/v1/charges', {
          operationId: 'createCharge',
          parameters: [{ name: 'Idempotency-Key', in: 'header', required: false, pointer: '/h' }],
        }),
      ]),
      apiOf([tool('send_email')]),
    ],
    resolveConfig(),
  );
  plan.diagnostics.push(
    diagnostic(
      'operation_name_collision',
      'warning',
      'GET /a (operationId make-promise) would be named makePromise, which POST /b keeps; renamed makePromise2',
      { file: 'spec.yaml', pointer: '/paths/~1a/get/operationId' },
    ),
    diagnostic('invalid_json', 'error', 'Unexpected token', { file: 'bad.json', pointer: '', line: 1, col: 2 }),
    diagnostic('tools_unresolved_ref', 'warning', 'POST /x: $ref #/nope cannot be resolved', {
      file: 'spec.yaml',
      pointer: '/paths/~1x/post',
    }),
  );
  return plan;
}

describe('audit render options', () => {
  it('text --verbose: every operation with its reasons under it (verbose: true)', () => {
    const plain = renderAudit(mixedPlan(), 'text');
    const verbose = renderAudit(mixedPlan(), 'text', { verbose: true });
    expect(plain).not.toContain('↳');
    const lines = verbose.split('\n');
    const row = lines.findIndex((l) => l.trimStart().startsWith('POST /accounts/get'));
    expect(lines[row + 1]).toContain('↳ http_unsafe_method: POST changes server state');
    expect(lines[row + 2]).toContain('↳ irreversible:');
    // Reads are listed too in verbose mode, with the rule that made them reads.
    const read = lines.findIndex((l) => l.trimStart().startsWith('GET /accounts'));
    expect(read).toBeGreaterThan(-1);
    expect(lines[read + 1]).toContain('↳ http_safe_method');
    expect(plain.split('\n').some((l) => l.trimStart().startsWith('GET /accounts'))).toBe(false);
  });

  it('totals count every diagnostic shown: JSON totals.diagnostics equals diagnostics by severity, text summary too', () => {
    const out = JSON.parse(renderAudit(mixedPlan(), 'json'));
    const bySeverity = { error: 0, warning: 0, info: 0 } as Record<string, number>;
    for (const d of out.diagnostics) bySeverity[d.severity]++;
    expect(out.totals.diagnostics).toEqual(bySeverity);
    expect(bySeverity.error).toBe(1);
    const text = renderAudit(mixedPlan(), 'text');
    expect(text).toContain(
      `${bySeverity.error + bySeverity.warning} problems (${bySeverity.error} errors, ${bySeverity.warning} warnings), ${bySeverity.info} notes`,
    );
    const rows = text.split('\n').filter((l) => / (error|warning|info) {2}/.test(l));
    expect(rows).toHaveLength(out.diagnostics.length);
  });

  it('SARIF: driver.version from toolVersion (default 0.0.0), informationUri only when given', () => {
    const def = JSON.parse(renderAudit(mixedPlan(), 'sarif')).runs[0].tool.driver;
    expect(def.version).toBe('0.0.0');
    expect('informationUri' in def).toBe(false);
    const given = JSON.parse(
      renderAudit(mixedPlan(), 'sarif', { toolVersion: '1.4.2', informationUri: 'https://example.test/idemgen' }),
    ).runs[0].tool.driver;
    expect(given).toMatchObject({ name: 'idemgen', version: '1.4.2', informationUri: 'https://example.test/idemgen' });
  });

  it('SARIF: every rule has shortDescription, fullDescription and help, and the log validates', () => {
    const text = renderAudit(mixedPlan(), 'sarif', { toolVersion: '1.0.0' });
    const log = JSON.parse(text);
    const rules = log.runs[0].tool.driver.rules as {
      id: string;
      shortDescription: { text: string };
      fullDescription: { text: string };
      help: { text: string };
    }[];
    expect(rules.map((r) => r.id)).toEqual(
      expect.arrayContaining([
        'probable_query_post',
        'key_not_resume_safe',
        'operation_name_collision',
        'invalid_json',
        'tools_unresolved_ref',
        'write_without_key_mechanism',
      ]),
    );
    for (const r of rules) {
      expect(r.shortDescription.text, r.id).not.toBe('');
      expect(r.fullDescription.text.length, r.id).toBeGreaterThan(10);
      expect(r.help.text.length, r.id).toBeGreaterThan(10);
    }
    const result = sarifValidator()(log);
    expect(result.valid, result.errors).toBe(true);
  });
});
