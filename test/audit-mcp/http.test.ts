import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { refusedUrl, startFaultServer } from '../helpers/fault-server.js';
import { sarifValidator } from '../emit/report/sarif-validate.js';
import { PAGE_SIZE, PAGED_TOOLS, startPagedServer, type PagedServer } from './paged-server.js';

interface Report {
  operations: { key: string; effect: string; source: { file: string } }[];
  diagnostics: { code: string; severity: string; file: string; pointer: string | null; message: string }[];
  totals: { sources: Record<string, { sources: number; operations: number }> };
}

let server: PagedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('idemgen audit --mcp-url (Streamable HTTP)', () => {
  test('reads every page of tools/list and reports the annotation contradictions', async () => {
    server = await startPagedServer();
    const dir = mkdtempSync(join(tmpdir(), 'idemgen-mcp-http-'));
    const run = await runCli(['audit', '--mcp-url', server.url, '--format', 'json', '--fail-on', 'none'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.operations.map((o) => o.key).sort()).toEqual(PAGED_TOOLS.map((t) => `tool:${t.name}`).sort());
    // 9 tools, 3 per page: the first request has no cursor, then one per further page.
    expect(server.cursors.length).toBe(Math.ceil(PAGED_TOOLS.length / PAGE_SIZE));
    expect(server.cursors[0]).toBeUndefined();
    expect(report.totals.sources.mcp).toMatchObject({ sources: 1, operations: PAGED_TOOLS.length });
    const codes = report.diagnostics.map((d) => `${d.code} ${d.pointer}`);
    expect(codes).toContain('read_only_hint_contradicts_name /tools/1/annotations/readOnlyHint');
    expect(codes).toContain('read_only_hint_contradicts_name /tools/7/annotations/readOnlyHint');
    expect(codes).toContain('read_only_hint_contradicts_name /tools/8/annotations/readOnlyHint');
    // A hint never makes a write look safe: the contradicted tools are classified as writes.
    const effect = (name: string) => report.operations.find((o) => o.key === `tool:${name}`)?.effect;
    expect([effect('delete_record'), effect('record_archive'), effect('record_touch')]).toEqual([
      'write',
      'write',
      'write',
    ]);
    expect([effect('get_record'), effect('list_records')]).toEqual(['read', 'read']);
    expect(codes).toContain('destructive_tool_without_key /tools/3/annotations/destructiveHint');
    // Idempotent by annotation, or keyed: not destructive_tool_without_key.
    expect(codes.filter((c) => c.startsWith('destructive_tool_without_key'))).toHaveLength(1);
    expect(report.diagnostics.every((d) => d.file === server?.url)).toBe(true);
    // The live server's label is a valid SARIF artifact location.
    const sarif = await runCli(['audit', '--mcp-url', server.url, '--format', 'sarif', '--fail-on', 'none'], dir);
    expect(sarifValidator()(JSON.parse(sarif.stdout)).errors).toBe('No errors');
  });

  test('sends --header with ${ENV} expanded; without it the server refuses and the run exits 2', async () => {
    server = await startPagedServer('s3cret-token');
    const dir = mkdtempSync(join(tmpdir(), 'idemgen-mcp-http-'));
    process.env.IDEMGEN_TEST_MCP_TOKEN = 's3cret-token';
    try {
      const ok = await runCli(
        [
          'audit',
          '--mcp-url',
          server.url,
          '--header',
          'Authorization: Bearer ${IDEMGEN_TEST_MCP_TOKEN}',
          '--format',
          'json',
          '--fail-on',
          'none',
        ],
        dir,
      );
      expect(ok.code).toBe(0);
      expect((JSON.parse(ok.stdout) as Report).operations).toHaveLength(PAGED_TOOLS.length);
      const refused = await runCli(['audit', '--mcp-url', server.url, '--mcp-timeout', '5000'], dir);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/mcp_server_failed/);
      expect(refused.stderr).not.toMatch(/s3cret/);
      const unset = await runCli(
        ['audit', '--mcp-url', server.url, '--header', 'Authorization: Bearer ${IDEMGEN_TEST_UNSET_VAR}'],
        dir,
      );
      expect(unset.code).toBe(2);
      expect(unset.stderr).toMatch(/IDEMGEN_TEST_UNSET_VAR is not set/);
    } finally {
      delete process.env.IDEMGEN_TEST_MCP_TOKEN;
    }
  });

  test('a server that accepts the request and never answers: exit 2 within the timeout', async () => {
    const silent = await startFaultServer();
    silent.always({ kind: 'stall' }); // takes the request, never answers
    try {
      const started = Date.now();
      const run = await runCli(
        ['audit', '--mcp-url', `${silent.url}/mcp`, '--mcp-timeout', '1500'],
        mkdtempSync(join(tmpdir(), 'idemgen-mcp-http-')),
      );
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/mcp_server_failed/);
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(silent.requests.map((r) => r.method)).toEqual(['POST']);
    } finally {
      await silent.close();
    }
  });

  test('a port nobody listens on is a diagnostic and exit 2, not a stack trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idemgen-mcp-http-'));
    const run = await runCli(['audit', '--mcp-url', `${await refusedUrl()}/mcp`, '--mcp-timeout', '5000'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/mcp_server_failed/);
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
  });
});
