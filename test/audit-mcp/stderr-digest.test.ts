/**
 * A crashed server's stderr in its diagnostic: the line that says why (Node's "Cannot find module", which
 * a tail-only view lost behind the stack and the version line) plus the last lines, bounded.
 */
import { describe, expect, test } from 'vitest';
import { collectStderr, stderrDigest } from '../../src/audit-mcp/stderr-digest.js';
import { runCli, scratchProject } from '../helpers/cli.js';

describe('stderr digest', () => {
  test('keeps the first error lines and the last lines, drops stack frames, escapes controls', () => {
    const text = [
      'node:internal/modules/cjs/loader:1210',
      '  throw err;',
      '  ^',
      '',
      "Error: Cannot find module '/srv/mcp/dist/index.js'",
      '    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)',
      '    at Module._load (node:internal/modules/cjs/loader:1038:27) {',
      "  code: 'MODULE_NOT_FOUND',",
      '  requireStack: []',
      '}',
      '',
      'Node.js v20.20.2 \u001b[31m',
    ].join('\n');
    expect(stderrDigest(text)).toBe(
      "Error: Cannot find module '/srv/mcp/dist/index.js' | requireStack: [] | } | Node.js v20.20.2 \\u001b[31m",
    );
  });

  test('a long stderr keeps its head and its tail (bounded), not only the tail', () => {
    const c = collectStderr();
    c.add('fatal: config file missing\n');
    for (let i = 0; i < 2000; i += 1) c.add(`debug line ${i} with some padding text\n`);
    c.add('shutting down\n');
    const digest = c.digest();
    expect(digest).toMatch(/^fatal: config file missing \| .*debug line 1999 .* \| shutting down$/);
    expect(digest.length).toBeLessThan(1000);
  });
});

test('audit --mcp on a server whose entry file is missing names the missing module (exit 2)', async () => {
  const run = await runCli(
    ['audit', '--mcp', 'node ./no-such-dir/server.js', '--mcp-timeout', '10000'],
    scratchProject(false),
  );
  expect(run.code).toBe(2);
  expect(run.stderr).toMatch(/mcp_server_failed/);
  expect(run.stderr).toMatch(/Cannot find module '[^']*no-such-dir\/server\.js'/);
});
