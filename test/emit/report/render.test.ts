import { describe, expect, it } from 'vitest';
import { classify } from '../../../src/classify/index.js';
import type { Plan } from '../../../src/classify/types.js';
import { resolveConfig } from '../../../src/config/types.js';
import {
  type AuditJson,
  type AuditModel,
  type AuditOperation,
  auditFailed,
  emitReport,
  expandAuditJson,
  renderAudit,
} from '../../../src/emit/report/index.js';
import { toAuditJson } from '../../../src/emit/report/json.js';
import { apiOf, http, tool } from '../../classify/helpers.js';
import { sarifValidator } from './sarif-validate.js';

const idem = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  pointer: '/h',
  schema: { type: 'string', maxLength: 8 },
};

function samplePlan(): Plan {
  const spec = apiOf([
    http('post', '/charges', { parameters: [idem] }),
    http('get', '/charges'),
    http('post', '/hooks'),
    http('delete', '/hooks/{id}'),
    http('post', '/sms | urgent'),
  ]);
  const tools = apiOf([
    { ...tool('send_email'), source: { file: 'a dir/tools.json', pointer: '/tools/0' } },
    {
      ...tool('read_file', { annotations: { readOnlyHint: true } }),
      source: { file: 'a dir/tools.json', pointer: '/tools/1' },
    },
  ]);
  const plan = classify([spec, tools], resolveConfig());
  // What the CLI does before rendering: fill line/col where the source is text.
  const first = plan.diagnostics.findIndex((d) => d.file === 'spec.yaml');
  plan.diagnostics[first] = { ...plan.diagnostics[first], line: 12, col: 5 };
  return plan;
}

describe('renderAudit json (the stable shape of `idemgen audit --format json`)', () => {
  it('operations sorted by file then key, diagnostics with line/col or null, totals', () => {
    const out = JSON.parse(renderAudit(samplePlan(), 'json'));
    expect(Object.keys(out)).toEqual(['operations', 'diagnostics', 'totals']);
    expect(out.operations.map((o: { source: { file: string }; key: string }) => `${o.source.file}|${o.key}`)).toEqual([
      'a dir/tools.json|tool:read_file',
      'a dir/tools.json|tool:send_email',
      'spec.yaml|DELETE /hooks/{id}',
      'spec.yaml|GET /charges',
      'spec.yaml|POST /charges',
      'spec.yaml|POST /hooks',
      'spec.yaml|POST /sms | urgent',
    ]);
    const charge = out.operations.find((o: { key: string }) => o.key === 'POST /charges');
    expect(charge).toMatchObject({
      class: 'native-key',
      mechanism: 'native-key',
      carrier: { in: 'header', name: 'Idempotency-Key', maxLength: 8 },
      keyStrategy: 'caller',
      source: { file: 'spec.yaml', pointer: '/paths/~1charges/post' },
    });
    expect(charge.reasons[0]).toMatchObject({ rule: 'native_header' });
    const hook = out.operations.find((o: { key: string }) => o.key === 'POST /hooks');
    expect(hook).toMatchObject({
      class: 'compensatable',
      mechanism: 'saga',
      compensation: 'DELETE /hooks/{id}',
      ttlSeconds: 86400,
    });
    expect(out.operations.find((o: { key: string }) => o.key === 'tool:send_email')).toMatchObject({
      toolBoundary: 'tool-dedup',
      keyStrategy: 'intent',
    });
    for (const d of out.diagnostics)
      expect(Object.keys(d).slice(0, 7)).toEqual(['code', 'severity', 'file', 'pointer', 'line', 'col', 'message']);
    expect(out.diagnostics.some((d: { line: number | null }) => d.line === 12)).toBe(true);
    expect(out.totals.class).toEqual({
      'read-only': 2,
      'native-key': 1,
      // The sample's addressed DELETE is safe to repeat by method semantics (no key, no store).
      'method-idempotent': 1,
      'owned-store': 0,
      compensatable: 1,
      irreversible: 2,
    });
    expect(out.totals.mechanism['fail-closed']).toBe(2);
    expect(out.totals.mechanism['method-idempotent']).toBe(1);
    expect(out.totals.effect).toEqual({ read: 2, write: 5 });
  });
});

describe('renderAudit text', () => {
  it('groups by file, prints line:col when known and the pointer otherwise, no colour by default', () => {
    const text = renderAudit(samplePlan(), 'text');
    expect(text).not.toContain('\u001b[');
    const specAt = text.indexOf('spec.yaml\n');
    expect(specAt).toBeGreaterThan(text.indexOf('a dir/tools.json\n'));
    expect(text).toMatch(/\n {2}12:5 +(warning|info|error) /);
    expect(text).toContain('/tools/0/inputSchema');
    expect(text).toMatch(/POST \/charges +native-key +native-key \(OP-1\) +header Idempotency-Key \(≤ 8\) +caller/);
    expect(text).toMatch(/problems \(\d+ errors?, \d+ warnings?\)/);
  });
  it('colours on request', () => {
    expect(renderAudit(samplePlan(), 'text', { color: true })).toContain('\u001b[33m');
  });
});

describe('renderAudit markdown', () => {
  it('has totals, then per file its findings, its writes (fail-closed first) with escaped cells, its reads collapsed', () => {
    const md = renderAudit(samplePlan(), 'markdown');
    expect(md).toContain('| class | operations |');
    expect(md).toContain('| fail-closed | 2 |');
    expect(md).toContain('| method-idempotent | 1 |');
    expect(md).toContain('| operation | class | mechanism | key carrier | key strategy | TTL | reasons |');
    expect(md).toContain('`POST /sms \\| urgent`');
    expect(md).toContain('| <a id="post-sms-urgent"></a>`POST /sms \\| urgent` |');
    // The method's own reason is left out; the next reason is the row's first.
    expect(md).toMatch(
      /\| <a id="post-charges"><\/a>`POST \/charges` \| native-key \| native-key \(OP-1\) \| header Idempotency-Key \(≤ 8\) \| caller \| — \| `native_header`: /,
    );
    const spec = md.slice(md.indexOf('## spec.yaml'));
    // Findings before writes; fail-closed writes first; reads in one collapsed list, each with its key.
    expect(spec.indexOf('### Findings')).toBeLessThan(spec.indexOf('### Writes'));
    const rows = spec.split('\n').filter((l) => l.startsWith('| <a id='));
    expect(rows[0]).toContain('| irreversible | fail-closed |');
    expect(spec).toMatch(
      /<details><summary>1 read-only operations: plain calls, no key<\/summary>\n\n`GET \/charges`\n/,
    );
    expect(md).not.toContain('<a id="get-charges">');
    expect(md).toMatch(/\| 12:5 \(`\/paths\S*`\) \|/);
    expect(md).toContain('`key_carrier_too_short`');
    for (const line of md.split('\n').filter((l) => l.startsWith('| `') || l.startsWith('| <a id=')))
      expect(line.endsWith('|')).toBe(true);
  });
});

describe('renderAudit sarif', () => {
  it('is valid SARIF 2.1.0 with rules metadata, relative URIs and regions when known', () => {
    const log = JSON.parse(renderAudit(samplePlan(), 'sarif'));
    const check = sarifValidator()(log);
    expect(check.errors).toBe('No errors');
    expect(check.valid).toBe(true);
    const run = log.runs[0];
    const ids = run.tool.driver.rules.map((r: { id: string }) => r.id);
    expect(ids).toEqual([...ids].sort());
    expect(
      run.tool.driver.rules.find((r: { id: string }) => r.id === 'key_carrier_too_short').fullDescription.text,
    ).toMatch(/entropy/);
    for (const r of run.results) expect(ids[r.ruleIndex]).toBe(r.ruleId);
    const located = run.results.find(
      (r: { locations: { physicalLocation: { region?: unknown } }[] }) => r.locations[0].physicalLocation.region,
    );
    expect(located.locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: 'spec.yaml' },
      region: { startLine: 12, startColumn: 5 },
    });
    expect(
      run.results.some(
        (r: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) =>
          r.locations[0].physicalLocation.artifactLocation.uri === 'a%20dir/tools.json',
      ),
    ).toBe(true);
  });
});

describe('auditFailed and emitReport', () => {
  it('--fail-on error / warning / none', () => {
    const plan = samplePlan();
    const errors = plan.diagnostics.filter((d) => d.severity === 'error').length;
    expect(auditFailed(plan, 'error')).toBe(errors > 0);
    expect(auditFailed(plan, 'warning')).toBe(true);
    expect(auditFailed(plan, 'none')).toBe(false);
    expect(auditFailed({ ...plan, diagnostics: [{ code: 'x', severity: 'error', message: 'm' }] }, 'error')).toBe(true);
    expect(auditFailed({ ...plan, diagnostics: [{ code: 'x', severity: 'info', message: 'm' }] }, 'warning')).toBe(
      false,
    );
  });

  it('writes report/audit.md and report/audit.json, byte-identical on a second run', () => {
    const a = emitReport(samplePlan(), resolveConfig());
    const b = emitReport(samplePlan(), resolveConfig());
    expect(a.files.map((f) => f.path)).toEqual(['report/audit.md', 'report/audit.json']);
    expect(a).toEqual(b);
    const json = JSON.parse(a.files[1].contents);
    // Nothing is lost: the compact document expands back to the whole model `audit --format json` prints.
    expect(expandAuditJson(json)).toEqual(JSON.parse(renderAudit(samplePlan(), 'json')));
    // One operation and one diagnostic per line, compact.
    const itemLines = a.files[1].contents.split('\n').filter((l) => l.startsWith('    {'));
    expect(itemLines).toHaveLength(json.operations.length + json.diagnostics.length);
    expect(json.operations.length).toBeGreaterThan(0);
    for (const f of a.files) expect(f.contents.endsWith('\n') && !f.contents.includes('\r')).toBe(true);
  });

  it("a read in audit.json carries no reasons: classify's read_only reason is the one left out", () => {
    const json = JSON.parse(emitReport(samplePlan(), resolveConfig()).files[1].contents) as AuditJson;
    const reads = json.operations.filter((o) => o.effect === 'read');
    expect(reads.map((o) => o.key)).toEqual(['tool:read_file', 'GET /charges']);
    for (const o of reads) {
      expect(o).not.toHaveProperty('reasons');
      expect(o).not.toHaveProperty('class');
    }
    // and nothing of it lands in the shared texts either
    expect(json.texts.some((t) => t.includes('plain call'))).toBe(false);
  });
});

describe('report/audit.json round trip: corner cases of the compaction rules', () => {
  const reason = (rule: string, detail: string, pointer?: string, signals?: string[]) => ({
    rule,
    detail,
    ...(pointer !== undefined ? { pointer } : {}),
    ...(signals !== undefined ? { signals } : {}),
  });
  const op = (key: string, pointer: string, more: Partial<AuditOperation>): AuditOperation => ({
    key,
    name: key,
    source: { file: 'spec.json', pointer },
    effect: 'write',
    effectReasons: [],
    class: 'owned-store',
    mechanism: 'dedup-table',
    carrier: null,
    keyStrategy: 'caller',
    reasons: [],
    ...more,
  });
  const model: AuditModel = {
    operations: [
      // a reason without a pointer stays without one (not the operation's)
      op('POST /a', '/paths/~1a/post', { reasons: [reason('cfg', 'from the config')] }),
      // the method's reason with signals: the signals are kept
      op('POST /b', '/paths/~1b/post', {
        effectReasons: [
          reason('http_unsafe_method', 'POST changes server state (RFC 9110 §9.2.1)', '/paths/~1b/post', ['x']),
        ],
      }),
      // a read whose one read_only reason carries signals
      op('GET /c~d', '/paths/~1c~0d/get', {
        effect: 'read',
        class: 'read-only',
        mechanism: 'none',
        keyStrategy: null,
        effectReasons: [reason('http_safe_method', 'GET is a safe method (RFC 9110 §9.2.1)', '/paths/~1c~0d/get')],
        reasons: [reason('read_only', 'no side effect: a plain call', '/paths/~1c~0d/get', ['y'])],
      }),
      op('send_email', '/tools/0', { reasons: [reason('r', '7', '/tools/0'), reason('r', '7', '/elsewhere')] }),
    ],
    diagnostics: [
      { code: 'a', severity: 'warning', file: null, pointer: null, line: null, col: null, message: 'm', hint: 'h' },
      { code: 'b', severity: 'info', file: 'other.json', pointer: '/p', line: 3, col: 4, message: 'm', hint: 'h' },
    ],
    totals: { operations: 4 } as unknown as AuditModel['totals'],
  };

  it('expands back to the model exactly', () => {
    const doc = JSON.parse(JSON.stringify(toAuditJson(model))) as AuditJson;
    expect(expandAuditJson(doc)).toStrictEqual(JSON.parse(JSON.stringify(model)));
  });
});
