import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import { createLogger } from '../../src/cli/logger.js';

export const ROOT = resolve(import.meta.dirname, '..', '..');

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process with captured output (no build needed). */
export async function runCli(args: string[], cwd: string, opts: { quiet?: boolean } = {}): Promise<CliRun> {
  const stdout = new Sink();
  const stderr = new Sink();
  const logger = createLogger({ stdout, stderr, env: { CI: 'true' }, quiet: opts.quiet });
  const code = await main(args, { cwd, logger });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** A scratch project with a copy of the example specs and config. */
export function scratchProject(withConfig = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-cli-'));
  cpSync(join(ROOT, 'specs'), join(dir, 'specs'), { recursive: true });
  if (withConfig) cpSync(join(ROOT, 'idemgen.config.json'), join(dir, 'idemgen.config.json'));
  return dir;
}
