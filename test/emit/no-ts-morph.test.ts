/**
 * `generate` never loads ts-morph (nor the TypeScript compiler or code-block-writer it brings): the client
 * emitter prints with its own CodeWriter. Loading them cost ~0.4 s and ~60 MiB on every run
 * (docs/decisions/0119-the-client-is-printed-by-our-own-printer-not-ts-morph.md).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const COMPILER = /['"](ts-morph|typescript|code-block-writer|@ts-morph\/common)['"]/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath, e.name));
}

describe('the emitters and ts-morph', () => {
  it('no file under src/emit names ts-morph, typescript or code-block-writer as a module', () => {
    const offenders = sources(join(root, 'src/emit')).filter((f) => COMPILER.test(readFileSync(f, 'utf8')));
    expect(offenders.map((f) => f.slice(root.length + 1))).toEqual([]);
  });

  it('a generate run loads none of them', () => {
    const out = mkdtempSync(join(tmpdir(), 'idemgen-no-ts-morph-'));
    try {
      // The CLI from source in a child process; at exit it lists every CommonJS module it loaded.
      const script = [
        "import { createRequire } from 'node:module';",
        `const { main } = await import(${JSON.stringify(join(root, 'src/cli/main.ts'))});`,
        `const code = await main(['generate', 'specs/payments.openapi.yaml', '--out', ${JSON.stringify(out)}, '--no-cache']);`,
        'const loaded = Object.keys(createRequire(import.meta.url).cache);',
        'process.stdout.write(JSON.stringify({ code, loaded }));',
      ].join('\n');
      const text = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      const { code, loaded } = JSON.parse(text) as { code: number; loaded: string[] };
      expect(code).toBe(0);
      expect(readdirSync(join(out, 'client'))).toEqual(['payments.gen.ts']);
      // The probe itself works: the run did load CommonJS packages (yaml parsing, Ajv …), just not these.
      expect(loaded.some((f) => f.includes('node_modules'))).toBe(true);
      expect(loaded.filter((f) => /[\\/](ts-morph|typescript|code-block-writer|@ts-morph)[\\/]/.test(f))).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
