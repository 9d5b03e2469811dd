import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { wantsColor } from '../../src/cli/logger.js';
import { ROOT, scratchProject } from '../helpers/cli.js';

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
});
