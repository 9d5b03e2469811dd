import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

interface Report {
  operations: { key: string; effect: string; source: { file: string } }[];
  diagnostics: {
    code: string;
    severity: string;
    file: string;
    line: number | null;
    pointer: string | null;
    message: string;
  }[];
  totals: { sources: Record<string, { sources: number; operations: number }> };
}

const server = (pkg: string) =>
  `node ${JSON.stringify(join(ROOT, 'node_modules', '@modelcontextprotocol', pkg, 'dist', 'index.js'))}`;
const scratch = () => mkdtempSync(join(tmpdir(), 'idemgen-mcp-stdio-'));

async function audit(args: string[], cwd: string): Promise<Report> {
  const run = await runCli(['audit', ...args, '--format', 'json', '--fail-on', 'none'], cwd);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Report;
}

describe('idemgen audit --mcp (stdio, reference servers from npm)', () => {
  test('server-memory: every tool classified; writes without a key reported', async () => {
    const report = await audit(['--mcp', server('server-memory')], scratch());
    const writes = report.operations
      .filter((o) => o.effect === 'write')
      .map((o) => o.key)
      .sort();
    expect(writes).toEqual([
      'tool:add_observations',
      'tool:create_entities',
      'tool:create_relations',
      'tool:delete_entities',
      'tool:delete_observations',
      'tool:delete_relations',
    ]);
    expect(report.operations.filter((o) => o.effect === 'read').map((o) => o.key)).toContain('tool:read_graph');
    expect(report.diagnostics.filter((d) => d.code === 'tool_missing_required_key')).toHaveLength(writes.length);
    expect(report.totals.sources.mcp.sources).toBe(1);
  });

  test('server-filesystem: destructive tools without a key, and --save feeds generate and check', async () => {
    const dir = scratch();
    mkdirSync(join(dir, 'root'));
    const report = await audit(
      ['--mcp', `${server('server-filesystem')} ${join(dir, 'root')}`, '--save', 'snap/fs.tools.json'],
      dir,
    );
    const destructive = report.diagnostics
      .filter((d) => d.code === 'destructive_tool_without_key')
      .map((d) => d.message.split(' ')[1])
      .sort();
    // write_file is destructive but annotated idempotentHint: true (overwriting twice changes nothing).
    expect(destructive).toEqual(['edit_file', 'move_file']);
    // With --save the findings point into the snapshot file, with lines.
    expect(report.diagnostics.every((d) => d.file === 'snap/fs.tools.json' && d.line !== null)).toBe(true);
    const snapshot = JSON.parse(readFileSync(join(dir, 'snap/fs.tools.json'), 'utf8')) as {
      server: { name: string };
      tools: { name: string }[];
    };
    expect(snapshot.tools.map((t) => t.name)).toContain('edit_file');
    expect(snapshot.server.name).toMatch(/filesystem/i);
    expect((await runCli(['generate', 'snap/fs.tools.json', '--out', 'gen'], dir)).code).toBe(0);
    expect((await runCli(['check', 'snap/fs.tools.json', '--out', 'gen'], dir)).code).toBe(0);
    expect(
      readdirSync(join(dir, 'gen', 'tools', 'mcp'))
        .map((f) => readFileSync(join(dir, 'gen', 'tools', 'mcp', f), 'utf8'))
        .join(''),
    ).toMatch(/"edit_file"[\s\S]*idempotency_key/);
  });

  test('server-everything plus a spec in one run: totals per source kind', async () => {
    const report = await audit(
      [join(ROOT, 'specs', 'payments.openapi.yaml'), '--mcp', server('server-everything')],
      scratch(),
    );
    expect(report.totals.sources.mcp.operations).toBeGreaterThanOrEqual(10);
    expect(report.totals.sources.spec.sources).toBe(1);
    expect(report.operations.find((o) => o.key === 'tool:echo')?.effect).toBe('read');
  });
});

function leftover(marker: string): string[] {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter((l) => l.includes(marker) && !l.includes('ps -eo'));
}

describe('a live server that fails', () => {
  test('crashing on start: diagnostic with its stderr, exit 2', async () => {
    const started = Date.now();
    const run = await runCli(
      ['audit', '--mcp', `node -e "console.error('boom: no config'); process.exit(3)"`, '--mcp-timeout', '10000'],
      scratch(),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/mcp_server_failed/);
    expect(run.stderr).toMatch(/boom: no config/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test('hanging (never answers initialize): diagnostic and exit 2 within the timeout, process killed', async () => {
    const marker = `idemgen-hang-${process.pid}-${Date.now()}`;
    const started = Date.now();
    const run = await runCli(
      ['audit', '--mcp', `node -e "setInterval(() => {}, 1000)" ${marker}`, '--mcp-timeout', '1500'],
      scratch(),
    );
    const elapsed = Date.now() - started;
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/mcp_server_failed/);
    expect(run.stderr).toMatch(/1500 ms|timed out/i);
    // 1.5 s deadline + the SDK's close (stdin end, SIGTERM after 2 s).
    expect(elapsed).toBeLessThan(8_000);
    expect(leftover(marker)).toEqual([]);
  });

  test('crashing in the middle of pagination (page 2 of tools/list): diagnostic, exit 2', async () => {
    const script = join(ROOT, 'test', 'audit-mcp', 'crash-on-list.mjs');
    const run = await runCli(['audit', '--mcp', `node ${JSON.stringify(script)}`, '--mcp-timeout', '15000'], scratch());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/mcp_server_failed/);
    expect(run.stderr).toMatch(/page store corrupted/);
  });

  test('a command that does not exist is a diagnostic, not a stack trace', async () => {
    const run = await runCli(
      ['audit', '--mcp', 'idemgen-no-such-binary-xyz --stdio', '--mcp-timeout', '5000'],
      scratch(),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/mcp_server_failed/);
    expect(run.stderr).not.toMatch(/internal error/);
  });
});
