import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT, runCli, scratchProject } from '../helpers/cli.js';

interface AuditJson {
  operations: {
    key: string;
    name: string;
    source: { file: string; pointer: string };
    effect: string;
    class: string;
    mechanism: string;
    reasons: unknown[];
  }[];
  diagnostics: { code: string; severity: string; file: string; pointer: string; line?: number }[];
}

describe('idemgen audit', () => {
  test('--format json prints one object with operations sorted by file then key', async () => {
    const dir = scratchProject();
    const run = await runCli(['audit', '--format', 'json', '--fail-on', 'none'], dir);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as AuditJson;
    const order = report.operations.map((o) => `${o.source.file}\0${o.key}`);
    expect(order).toEqual([...order].sort());
    const byKey = new Map(report.operations.map((o) => [o.key, o]));
    expect(byKey.get('POST /charges')?.mechanism).toBe('native-key');
    expect(byKey.get('POST /v2/sms')?.mechanism).toBe('fail-closed');
    expect(byKey.get('GET /charges')?.effect).toBe('read');
    for (const op of report.operations) expect(op.reasons.length + (op.effect === 'read' ? 1 : 0)).toBeGreaterThan(0);
  });

  test('writes several reports with repeated -o and picks the format from the extension', async () => {
    const dir = scratchProject();
    const run = await runCli(
      ['audit', '-o', 'out/a.json', '-o', 'out/a.sarif', '-o', 'out/a.md', '--fail-on', 'none'],
      dir,
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'out/a.json'), 'utf8')).operations).toHaveLength(22);
    expect(JSON.parse(readFileSync(join(dir, 'out/a.sarif'), 'utf8')).version).toBe('2.1.0');
    const md = readFileSync(join(dir, 'out/a.md'), 'utf8');
    expect(md).toContain('| operation | class | mechanism | key carrier | key strategy | TTL | reasons |');
    const rows = md.split('\n').filter((l) => l.startsWith('| `') || l.startsWith('| <a id="'));
    // One row per write, then one per rule found: 3 from classifying, 2 that only generate used to report.
    expect(rows).toHaveLength(14 + 5);
    expect(md).toContain('| `tools_openai_json_encoded` | 1 warning |');
    const reads = [...md.matchAll(/<details><summary>(\d+) read-only operations: plain calls, no key<\/summary>/g)];
    expect(reads.reduce((n, m) => n + Number(m[1]), 0)).toBe(8); // each file's reads, collapsed
    expect(rows).toContain(
      '| <a id="post-v2-sms"></a>`POST /v2/sms` | irreversible | fail-closed | — | intent | 24 h | `irreversible` |',
    );
    // A reason text every row shares, once under its file's table.
    expect(md).toContain(
      '- `irreversible`: no native key, not our store, no inverse operation: fail closed (a pending row blocks a second call; an ambiguous outcome is never retried automatically)',
    );
    expect(rows).toContain(
      '| <a id="post-payouts"></a>`POST /payouts` | native-key | native-key (OP-1) | body idempotency_key (≤ 64) | caller | — | `native_field`: request body (application/json) has the key field idempotency_key |',
    );
  });

  test('--fail-on warning exits 1 when the example specs have warnings, none exits 0', async () => {
    const dir = scratchProject();
    const json = JSON.parse(
      (await runCli(['audit', '--format', 'json', '--fail-on', 'none'], dir)).stdout,
    ) as AuditJson;
    const hasWarning = json.diagnostics.some((d) => d.severity === 'warning' || d.severity === 'error');
    expect((await runCli(['audit', '--fail-on', 'warning'], dir)).code).toBe(hasWarning ? 1 : 0);
    expect((await runCli(['audit', '--fail-on', 'none'], dir)).code).toBe(0);
  });

  test('findings carry line and column of the operation in the text report', async () => {
    const dir = scratchProject();
    const json = JSON.parse(
      (await runCli(['audit', '--format', 'json', '--fail-on', 'none'], dir)).stdout,
    ) as AuditJson;
    const located = json.diagnostics.filter((d) => d.line !== undefined);
    expect(located.length).toBe(json.diagnostics.filter((d) => d.file && d.pointer !== undefined).length);
  });
});

describe('idemgen init', () => {
  test('writes a commented config and a prebuild script, and refuses to overwrite', async () => {
    const dir = scratchProject(false);
    // The MCP SDK installed in the project: init keeps every artifact, mcp included.
    mkdirSync(join(dir, 'node_modules', '@modelcontextprotocol'), { recursive: true });
    symlinkSync(
      join(ROOT, 'node_modules/@modelcontextprotocol/sdk'),
      join(dir, 'node_modules/@modelcontextprotocol/sdk'),
    );
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', scripts: { build: 'tsc' } }, null, 2));
    expect((await runCli(['init'], dir)).code).toBe(0);
    expect(readFileSync(join(dir, 'idemgen.config.yaml'), 'utf8')).toMatch(/^# idemgen configuration/);
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts.prebuild).toBe('idemgen generate');
    expect((await runCli(['init'], dir)).code).toBe(2);
    expect((await runCli(['generate'], dir)).code).toBe(0);
    expect(existsSync(join(dir, 'generated', 'report', 'audit.json'))).toBe(true);
    // Every default artifact, the agent ones included (the config once listed four and dropped handlers and mcp).
    expect(readdirSync(join(dir, 'generated')).sort()).toEqual(['client', 'handlers', 'mcp', 'report', 'sql', 'tools']);
  });

  test('where the MCP SDK is not installed, mcp is left out of the config and init names the package to add', async () => {
    const dir = scratchProject(false);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', scripts: { build: 'tsc' } }, null, 2));
    const run = await runCli(['init'], dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'left the mcp artifact (an MCP server module per API) out of artifacts: it needs @modelcontextprotocol/sdk — npm install @modelcontextprotocol/sdk, then add mcp to artifacts in idemgen.config.yaml',
    );
    expect(readFileSync(join(dir, 'idemgen.config.yaml'), 'utf8')).toMatch(
      /^artifacts: \[client, handlers, report, sql, tools\]$/m,
    );
    const generate = await runCli(['generate'], dir);
    expect(generate.code).toBe(0);
    expect(generate.stderr + generate.stdout).not.toMatch(/modelcontextprotocol/);
    expect(readdirSync(join(dir, 'generated')).sort()).toEqual(['client', 'handlers', 'report', 'sql', 'tools']);
  });

  test('generate says once, naming the artifact, when mcp is emitted and the SDK is not installed', async () => {
    const dir = scratchProject(false);
    const run = await runCli(['generate'], dir);
    expect(run.code).toBe(0);
    const notes = run.stderr.split('\n').filter((l) => l.includes('@modelcontextprotocol/sdk'));
    expect(notes).toEqual([
      'note: generated/mcp/ (artifact mcp) imports @modelcontextprotocol/sdk, which is not installed here: npm install @modelcontextprotocol/sdk, or leave mcp out of artifacts',
    ]);
  });

  test('without a build script no prebuild is added (it would never run): a generate script and how to hook it', async () => {
    const dir = scratchProject(false);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'x', scripts: { test: 'node --test' } }, null, 2));
    const run = await runCli(['init'], dir);
    expect(run.code).toBe(0);
    const scripts = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts as Record<string, string>;
    expect(scripts).toEqual({ test: 'node --test', generate: 'idemgen generate' });
    expect(run.stdout).toMatch(/no "build" script, so no prebuild hook.*npx idemgen generate/);
  });
});

describe('idemgen init on what is already there', () => {
  test('a package.json that does not parse: its line in the message, exit 2, nothing written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idemgen-init-'));
    writeFileSync(join(dir, 'package.json'), '{\n  "name": "x",\n  "scripts": { "build": "tsc", }\n}\n');
    const run = await runCli(['init'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(/internal error/);
    expect(run.stderr).toMatch(/package\.json\n\s+3:\d+\s+error\s+package\.json is not valid JSON/);
    expect(readdirSync(dir)).toEqual(['package.json']);
    // A package.json whose scripts are not an object is refused the same way.
    writeFileSync(join(dir, 'package.json'), '{ "scripts": ["build"] }');
    const odd = await runCli(['init'], dir);
    expect(odd.code).toBe(2);
    expect(odd.stderr).toMatch(/"scripts" is not an object/);
    expect(readdirSync(dir)).toEqual(['package.json']);
  });

  test('--force over a config of another name keeps it as a backup, and the new config is the one read', async () => {
    const dir = scratchProject(false);
    const old = JSON.stringify({ inputs: ['specs'], out: 'elsewhere' });
    writeFileSync(join(dir, 'idemgen.config.json'), old);
    const refused = await runCli(['init'], dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /A config already exists: idemgen\.config\.json \(init --force keeps it as idemgen\.config\.json\.bak/,
    );
    expect(existsSync(join(dir, 'idemgen.config.yaml'))).toBe(false);
    const forced = await runCli(['init', '--force'], dir);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/kept the previous config as idemgen\.config\.json\.bak/);
    expect(readFileSync(join(dir, 'idemgen.config.json.bak'), 'utf8')).toBe(old);
    expect(existsSync(join(dir, 'idemgen.config.json'))).toBe(false);
    // Before, the YAML was written beside the JSON, which still won: generate wrote to elsewhere/.
    expect((await runCli(['generate'], dir)).code).toBe(0);
    expect(existsSync(join(dir, 'generated', 'client'))).toBe(true);
    expect(existsSync(join(dir, 'elsewhere'))).toBe(false);
    // A second --force keeps the first fresh config too, under the next free name.
    expect((await runCli(['init', '--force'], dir)).code).toBe(0);
    expect(readFileSync(join(dir, 'idemgen.config.yaml.bak'), 'utf8')).toMatch(/^# idemgen configuration/);
    expect(readFileSync(join(dir, 'idemgen.config.json.bak'), 'utf8')).toBe(old);
  });
});

describe('idemgen audit options reach the renderers', () => {
  test('--verbose lists the reasons under each operation; SARIF names the tool version', async () => {
    const dir = scratchProject();
    const plain = await runCli(['audit', '--fail-on', 'none'], dir);
    const verbose = await runCli(['audit', '--verbose', '--fail-on', 'none'], dir);
    expect(verbose.stdout.length).toBeGreaterThan(plain.stdout.length);
    expect(verbose.stdout).toMatch(/Idempotency-Key/);
    const sarif = JSON.parse((await runCli(['audit', '--format', 'sarif', '--fail-on', 'none'], dir)).stdout);
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(sarif.runs[0].tool.driver.version).toBe(pkg.version);
  });
});
