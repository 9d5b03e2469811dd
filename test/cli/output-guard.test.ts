/**
 * `generate` replaces its output folder as a whole, so it refuses a folder that is not its own: one holding
 * the folder it runs in, an input or the config, or files a previous run did not write. Nothing is deleted
 * when it refuses. And a folder input never reads the output folder back (`idemgen generate .`).
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverInputs } from '../../src/load/discover.js';
import { runCli, scratchProject } from '../helpers/cli.js';

/** Every file under `dir` with its content: what must survive a refused run byte for byte. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) out[join(e.parentPath, e.name)] = readFileSync(join(e.parentPath, e.name), 'utf8');
  return out;
}

describe('the output folder generate replaces', () => {
  it('is never the folder it runs in, a folder above it, or one holding an input or the config', async () => {
    const dir = scratchProject();
    writeFileSync(join(dir, 'notes.txt'), 'my notes\n');
    const before = snapshot(dir);
    for (const out of ['.', '..', 'specs']) {
      const run = await runCli(['generate', '--out', out], dir);
      expect(run.code, out).toBe(2);
      expect(run.stderr, out).toMatch(/output_holds_inputs/);
      expect(run.stderr, out).toMatch(/replaces its output folder as a whole, so it will not write there/);
      expect(run.stderr, out).not.toMatch(/internal error/);
    }
    // The config's folder: a config in config/ with out "." names that folder.
    mkdirSync(join(dir, 'config'));
    writeFileSync(join(dir, 'config', 'idemgen.config.json'), JSON.stringify({ inputs: ['../specs'], out: '.' }));
    const fromConfig = await runCli(['generate', '--config', 'config/idemgen.config.json'], dir);
    expect(fromConfig.code).toBe(2);
    expect(fromConfig.stderr).toMatch(/idemgen\.config\.json: generate replaces/);
    const after = snapshot(dir);
    delete after[join(dir, 'config', 'idemgen.config.json')];
    expect(after).toEqual(before);
  });

  it('is refused when no run of idemgen wrote it, and replaced as a whole when one did', async () => {
    const dir = scratchProject();
    mkdirSync(join(dir, 'keep'));
    writeFileSync(join(dir, 'keep', 'a.txt'), 'mine\n');
    // A folder that merely has an artifact's name in it is not idemgen's either.
    mkdirSync(join(dir, 'app', 'client'), { recursive: true });
    writeFileSync(join(dir, 'app', 'client', 'index.ts'), 'export const mine = 1;\n');
    for (const [out, shown] of [
      ['keep', '(a.txt)'],
      ['app', '(client)'],
    ]) {
      const refused = await runCli(['generate', '--out', out!], dir);
      expect(refused.code, out).toBe(2);
      expect(refused.stderr, out).toContain(`holds files idemgen did not write ${shown}`);
      expect(refused.stderr, out).toMatch(/output_not_owned/);
    }
    expect(readFileSync(join(dir, 'keep', 'a.txt'), 'utf8')).toBe('mine\n');
    expect(readFileSync(join(dir, 'app', 'client', 'index.ts'), 'utf8')).toBe('export const mine = 1;\n');

    // An empty folder is fine (Finder's litter aside); a folder a run wrote is replaced, a file put into it by hand included (0006).
    mkdirSync(join(dir, 'empty'));
    writeFileSync(join(dir, 'empty', '.DS_Store'), '');
    expect((await runCli(['generate', '--out', 'empty'], dir)).code).toBe(0);
    expect((await runCli(['generate'], dir)).code).toBe(0);
    writeFileSync(join(dir, 'generated', 'README.md'), '# mine\n');
    expect((await runCli(['generate', '--no-cache'], dir)).code).toBe(0);
    expect(existsSync(join(dir, 'generated', 'README.md'))).toBe(false);
    // Only the tool files (JSON, no header) are enough to tell: `artifacts: [tools]`.
    writeFileSync(
      join(dir, 'idemgen.config.json'),
      JSON.stringify({ inputs: ['specs'], artifacts: ['tools'], out: 'only-tools' }),
    );
    expect((await runCli(['generate'], dir)).code).toBe(0);
    expect(readdirSync(join(dir, 'only-tools'))).toEqual(['tools']);
    expect((await runCli(['generate', '--no-cache'], dir)).code).toBe(0);
  });

  it('is not read back as input when an input folder holds it', async () => {
    const dir = scratchProject(false);
    const summary = (text: string) => /✔ (\d+) input\(s\), (\d+) operation\(s\)/.exec(text)?.slice(1);
    const first = await runCli(['generate', '.'], dir);
    expect(first.code).toBe(0);
    expect(existsSync(join(dir, 'generated', 'tools', 'mcp'))).toBe(true);
    const again = await runCli(['generate', '.', '--no-cache'], dir);
    expect(summary(again.stdout + again.stderr)).toEqual(summary(first.stdout + first.stderr));
    // Unchanged inputs, so the cache sees nothing new (the output is not part of the fingerprint either).
    const third = await runCli(['generate', '.'], dir);
    expect(third.stdout + third.stderr).toMatch(/is up to date/);
    const found = await discoverInputs(['.'], dir, [join(dir, 'generated')]);
    expect(found.candidates.some((c) => c.display.startsWith('generated/'))).toBe(false);
    const all = await discoverInputs(['.'], dir);
    expect(all.candidates.some((c) => c.display.startsWith('generated/'))).toBe(true);
  });

  it('a place that cannot be written is a diagnostic (exit 2), not an internal error', async () => {
    const dir = scratchProject();
    writeFileSync(join(dir, 'notes.txt'), 'my notes\n');
    const under = await runCli(['generate', '--out', 'notes.txt/generated'], dir);
    expect(under.code).toBe(2);
    expect(under.stderr).toMatch(/Cannot write .*notes\.txt\/generated \(a file is in the way\).*output_unwritable/);
    mkdirSync(join(dir, 'reports'));
    const folder = await runCli(['audit', '--format', 'html', '--output', 'reports', '--fail-on', 'none'], dir);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(/Cannot write .*reports \(it is a folder\).*output_unwritable/);
    const spec = join(dir, 'specs', 'inventory.swagger.json');
    const before = readFileSync(spec, 'utf8');
    const over = await runCli(
      ['audit', 'specs/inventory.swagger.json', '--output', 'specs/inventory.swagger.json'],
      dir,
    );
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(/is an input of this run: the report would replace it.*output_is_input/);
    expect(readFileSync(spec, 'utf8')).toBe(before);
    for (const run of [under, folder, over]) expect(run.stderr).not.toMatch(/internal error/);
  });
});
