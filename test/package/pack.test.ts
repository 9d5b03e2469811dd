/**
 * The package as users get it: `npm pack`, install the tarball into a fresh project (dependencies from the
 * registry only), run `npx idemgen generate` on a copied spec and compile the output against the installed
 * `idemgen/runtime` with tsc --strict.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const npm = (args: string[], cwd: string): string =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' }, stdio: ['ignore', 'pipe', 'pipe'] });

test('npm pack → install → npx idemgen generate → tsc --strict against idemgen/runtime', { timeout: 600_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'idemgen-pack-'));
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', work], ROOT)) as { filename: string; files: { path: string }[] }[];
  const files = packed[0].files.map((f) => f.path);
  expect(files).toContain('bin/idemgen.js');
  expect(files).toContain('dist/runtime/index.js');
  expect(files).toContain('dist/runtime/index.d.ts');
  expect(files.filter((f) => f.startsWith('test/') || f.startsWith('src/') || f.includes('.test.'))).toEqual([]);

  const app = join(work, 'app');
  cpSync(join(ROOT, 'specs'), join(app, 'specs'), { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  npm(['install', '--no-package-lock', join(work, packed[0].filename), 'typescript@5.9', '@types/node@20'], app);

  execFileSync('npx', ['--no-install', 'idemgen', 'generate'], { cwd: app, stdio: 'pipe', env: { ...process.env, CI: 'true' } });
  const clients = readdirSync(join(app, 'generated', 'client')).filter((f) => f.endsWith('.gen.ts'));
  expect(clients.length).toBeGreaterThan(0);
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', skipLibCheck: false, types: ['node'], noUnusedLocals: true },
    include: ['generated/client/*.ts'],
  }));
  execFileSync(join(app, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], { cwd: app, stdio: 'pipe' });
  expect(existsSync(join(app, 'node_modules', 'idemgen', 'dist', 'runtime', 'index.d.ts'))).toBe(true);
});
