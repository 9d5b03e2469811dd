import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { wantsColor } from '../../src/cli/logger.js';
import { ROOT, runCli, scratchProject } from '../helpers/cli.js';

describe('colour', () => {
  test.each([
    ['a TTY', { isTTY: true }, {}, true],
    ['a pipe', { isTTY: false }, {}, false],
    ['NO_COLOR on a TTY', { isTTY: true }, { NO_COLOR: '1' }, false],
    ['NO_COLOR beats FORCE_COLOR', { isTTY: false }, { NO_COLOR: '1', FORCE_COLOR: '1' }, false],
    ['FORCE_COLOR on a pipe', { isTTY: false }, { FORCE_COLOR: '1' }, true],
    ['CI on a TTY', { isTTY: true }, { CI: 'true' }, false],
  ])('%s', (_name, stream, env, expected) => {
    expect(wantsColor(stream, env)).toBe(expected);
  });
});

describe('generate --watch', () => {
  test('regenerates when a spec changes (built binary)', async () => {
    const dir = scratchProject();
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'idemgen.js'), 'generate', '--watch'], {
      cwd: dir,
      env: { ...process.env, CI: 'true' },
    });
    let err = '';
    const seen = (re: RegExp) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${re}; stderr:\n${err}`)), 60_000);
        const check = (): void => {
          if (re.test(err)) {
            clearTimeout(timer);
            resolve();
          } else setTimeout(check, 50);
        };
        check();
      });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    try {
      await seen(/Watching/);
      const spec = join(dir, 'specs', 'messaging.openapi.yaml');
      writeFileSync(spec, readFileSync(spec, 'utf8').replace('summary: Send an SMS', 'summary: Send a text message'));
      await seen(/✔[\s\S]*✔/);
      await new Promise((r) => setTimeout(r, 300));
      expect(readFileSync(join(dir, 'generated', 'client', 'messaging.gen.ts'), 'utf8')).toMatch(/Send a text message/);
    } finally {
      child.kill('SIGINT');
    }
  });

  test('runs again only for a change a run reads; a broken spec is reported and the watch goes on', async () => {
    const dir = scratchProject();
    // `.` holds the output folder, the cache (node_modules/.cache) and, here, the log the run writes to.
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'idemgen.js'), 'generate', '.', '--watch'], {
      cwd: dir,
      env: { ...process.env, CI: 'true' },
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      writeFileSync(join(dir, 'watch.log'), err);
    });
    // A run ends in one of: up to date, ✔ (written), or a count of errors (a run with warnings also says ✔).
    const runs = (): number => (err.match(/up to date|✔|\b[1-9]\d* error\(s\)/g) ?? []).length;
    const waitFor = async (done: () => boolean): Promise<void> => {
      const until = Date.now() + 60_000;
      while (!done()) {
        if (Date.now() > until) throw new Error(`timed out; stderr:\n${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const quiet = () => new Promise((r) => setTimeout(r, 1500));
    try {
      await waitFor(() => /Watching/.test(err));
      expect(runs()).toBe(1);
      // Files no run reads: no run (before, each one started a run, and the log it wrote started the next).
      writeFileSync(join(dir, 'notes.txt'), 'my notes\n');
      writeFileSync(join(dir, 'specs', 'README.md'), '# specs\n');
      await quiet();
      expect(runs()).toBe(1);
      // A broken spec: its diagnostic with code and line, and the watch goes on.
      writeFileSync(join(dir, 'specs', 'broken.json'), '{"openapi": "3.0.3", "info": ');
      await waitFor(() => /invalid_json/.test(err));
      expect(err).toMatch(/specs\/broken\.json\n\s+1:30\s+error .* invalid_json/);
      rmSync(join(dir, 'specs', 'broken.json'));
      const spec = join(dir, 'specs', 'messaging.openapi.yaml');
      writeFileSync(spec, readFileSync(spec, 'utf8').replace('summary: Send an SMS', 'summary: Send a text message'));
      await waitFor(() => (err.match(/✔/g) ?? []).length === 2);
      await quiet();
      expect(readFileSync(join(dir, 'generated', 'client', 'messaging.gen.ts'), 'utf8')).toMatch(/Send a text message/);
      // Settled: at most one run per change (the removal may make one more), none started by the runs themselves.
      const settled = runs();
      expect(settled).toBeLessThanOrEqual(4);
      await quiet();
      expect(runs()).toBe(settled);
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill('SIGINT');
    }
  }, 120_000);

  test('an input whose folder does not exist cannot be watched: exit 2 with its path, no internal error', async () => {
    const dir = scratchProject(false);
    const run = await runCli(['generate', 'nope/api.yaml', '--watch'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/cannot watch nope \(ENOENT\)/);
    expect(run.stderr).not.toMatch(/internal error|Watching/);
  });
});
