import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { generateOnce } from '../../src/cli/commands/generate.js';
import { createLogger } from '../../src/cli/logger.js';
import { listFiles } from '../../src/cli/output-dir.js';
import { runCli, scratchProject } from '../helpers/cli.js';

function snapshotDir(dir: string): Record<string, string> {
  return Object.fromEntries(listFiles(dir).map((p) => [p, readFileSync(join(dir, p), 'utf8')]));
}

describe('idemgen generate', () => {
  test('with no inputs reads specs/ and writes every artifact into generated/', async () => {
    const dir = scratchProject();
    const run = await runCli(['generate'], dir);
    expect(run.stderr).not.toMatch(/internal error/);
    expect(run.code).toBe(0);
    const files = listFiles(join(dir, 'generated'));
    expect(files.some((f) => f.startsWith('client/') && f.endsWith('.gen.ts'))).toBe(true);
    expect(files.some((f) => f.startsWith('sql/postgres/') && f.endsWith('.up.sql'))).toBe(true);
    expect(files.some((f) => f.startsWith('tools/mcp/'))).toBe(true);
    expect(files).toContain('report/audit.json');
    expect(files).toContain('report/audit.md');
  });

  test('is deterministic: two fresh runs give byte-identical folders', async () => {
    const a = scratchProject();
    const b = scratchProject();
    expect((await runCli(['generate', '--no-cache'], a)).code).toBe(0);
    expect((await runCli(['generate', '--no-cache'], b)).code).toBe(0);
    expect(snapshotDir(join(a, 'generated'))).toEqual(snapshotDir(join(b, 'generated')));
  });

  test('an unchanged re-run does no work and says so; a changed input regenerates', async () => {
    const dir = scratchProject();
    expect((await runCli(['generate'], dir)).code).toBe(0);
    const second = await runCli(['generate'], dir);
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/up to date/);
    const spec = join(dir, 'specs', 'messaging.openapi.yaml');
    writeFileSync(spec, readFileSync(spec, 'utf8').replace('Send an SMS', 'Send one SMS'));
    const third = await runCli(['generate'], dir);
    expect(third.code).toBe(0);
    expect(third.stderr).not.toMatch(/up to date/);
    const client = readFileSync(join(dir, 'generated', 'client', 'messaging.gen.ts'), 'utf8');
    expect(client).toContain('Send one SMS');
    expect(client).not.toContain('Send an SMS');
  });

  test('a run that fails half-way leaves generated/ byte-identical to before', async () => {
    const dir = scratchProject();
    expect((await runCli(['generate'], dir)).code).toBe(0);
    const before = snapshotDir(join(dir, 'generated'));
    writeFileSync(
      join(dir, 'specs', 'extra.openapi.yaml'),
      'openapi: 3.0.3\ninfo: { title: x, version: "1" }\npaths:\n  /x:\n    post:\n      responses: { "200": { description: ok } }\n',
    );
    let written = 0;
    const logger = createLogger({ env: { CI: 'true' }, quiet: true });
    await expect(
      generateOnce(
        { cwd: dir, logger },
        { cache: false },
        {
          afterFile: () => {
            written += 1;
            if (written === 3) throw new Error('simulated crash while writing');
          },
        },
      ),
    ).rejects.toThrow(/simulated crash/);
    expect(snapshotDir(join(dir, 'generated'))).toEqual(before);
    expect(readdirSync(dir).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });
});

describe('idemgen check', () => {
  test('passes after generate, fails on a hand-edited, missing or extra file, passes after regeneration', async () => {
    const dir = scratchProject();
    expect((await runCli(['generate'], dir)).code).toBe(0);
    expect((await runCli(['check'], dir)).code).toBe(0);
    const audit = join(dir, 'generated', 'report', 'audit.md');
    writeFileSync(audit, `${readFileSync(audit, 'utf8')}\nhand edit\n`);
    writeFileSync(join(dir, 'generated', 'stray.txt'), 'x');
    const stale = await runCli(['check'], dir);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/changed\s+generated\/report\/audit\.md/);
    expect(stale.stderr).toMatch(/extra\s+generated\/stray\.txt/);
    expect((await runCli(['generate'], dir)).code).toBe(0);
    expect(existsSync(join(dir, 'generated', 'stray.txt'))).toBe(false);
    expect((await runCli(['check'], dir)).code).toBe(0);
  });

  test('compares the handlers bindings module too: a changed or missing <api>.bindings.gen.ts is stale', async () => {
    const dir = scratchProject();
    expect((await runCli(['generate'], dir)).code).toBe(0);
    const handlers = join(dir, 'generated', 'handlers');
    const json = readdirSync(handlers).find((n) => n.endsWith('.bindings.gen.ts'));
    expect(json).toBeDefined();
    const file = join(handlers, json!);
    const text = readFileSync(file, 'utf8');
    const edited = text.replace('"operation":"', '"operation":"x');
    expect(edited).not.toBe(text);
    writeFileSync(file, edited);
    const changed = await runCli(['check'], dir);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain(`changed  generated/handlers/${json}`);
    rmSync(file);
    const missing = await runCli(['check'], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(new RegExp(`missing\\s+generated/handlers/${json!.replaceAll('.', '\\.')}`));
  });
});
