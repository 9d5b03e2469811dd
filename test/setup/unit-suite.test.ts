/**
 * `npm run test:unit` leaves out exactly the test files that need a database server (vitest.unit.config.ts
 * starts none): a file needs one when it, or a helper it imports, reads a service URL with vitest's
 * `inject`, or starts servers of its own (test/helpers/killable-servers.ts). A new such file that is not
 * listed would fail in the unit suite with an undefined URL; a listed file that no longer needs a server
 * would be left out for nothing. Both fail here.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import unit, { NEEDS_BUILD, NEEDS_SERVICES, SLOW } from '../../vitest.unit.config.js';
import { ROOT } from '../helpers/cli.js';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'fixtures' || name === 'corpus' ? [] : files(path);
    return /\.(ts|mjs)$/.test(name) ? [path] : [];
  });
}

/** Relative imports of a test source, resolved to files (`./x.js` → `x.ts`). */
function importsOf(file: string, text: string): string[] {
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].flatMap((m) => {
    const base = resolve(dirname(file), m[1]!);
    const hit = [base.replace(/\.js$/, '.ts'), base, `${base}.ts`].find((p) => existsSync(p) && statSync(p).isFile());
    return hit === undefined ? [] : [hit];
  });
}

/** Does the source itself reach a server: vitest's `inject`, or servers it starts and kills? */
const STARTS_OR_INJECTS = [/import\s*\{[^}]*\binject\b[^}]*\}\s*from\s*'vitest'/, /killable-servers\.js'/];

function needsServices(): string[] {
  const all = files(join(ROOT, 'test'));
  const text = new Map(all.map((f) => [f, readFileSync(f, 'utf8')]));
  const memo = new Map<string, boolean>();
  const needs = (file: string): boolean => {
    const known = memo.get(file);
    if (known !== undefined) return known;
    memo.set(file, false); // an import cycle adds nothing
    const src = text.get(file) ?? readFileSync(file, 'utf8');
    const got = STARTS_OR_INJECTS.some((re) => re.test(src)) || importsOf(file, src).some(needs);
    memo.set(file, got);
    return got;
  };
  return all
    .filter((f) => f.endsWith('.test.ts') && needs(f))
    .map((f) => relative(ROOT, f))
    .sort();
}

describe('the unit suite (vitest.unit.config.ts)', () => {
  it('leaves out every test file that needs a database server, and only those', () => {
    const found = needsServices();
    expect(found).toContain('test/runtime/store/suite.test.ts');
    expect(found).toContain('test/runtime/store/store-down.test.ts');
    // the browser test injects the Chromium path; it is left out with the slow ones
    expect([...NEEDS_SERVICES].sort()).toEqual(found.filter((f) => !NEEDS_BUILD.includes(f)));
  });

  it('starts no server, and lists only files that exist', () => {
    expect(unit.test?.globalSetup).toEqual([]);
    for (const path of [...NEEDS_SERVICES, ...SLOW, ...NEEDS_BUILD.filter((p) => !p.includes('*'))])
      expect({ path, exists: existsSync(join(ROOT, path)) }).toEqual({ path, exists: true });
    expect(unit.test?.exclude).toEqual(expect.arrayContaining([...NEEDS_SERVICES, ...NEEDS_BUILD, ...SLOW]));
  });

  it('leaves out the tests that run the built CLI (bin/idemgen.js loads dist/)', () => {
    const spawnsBin = files(join(ROOT, 'test'))
      .filter((f) => f.endsWith('.test.ts') && f !== import.meta.filename)
      .filter((f) => /bin\/idemgen\.js|'bin', 'idemgen\.js'/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    expect(spawnsBin.length).toBeGreaterThan(0);
    const left = spawnsBin.filter(
      (f) => !NEEDS_BUILD.some((p) => p === f || (p.endsWith('/**') && f.startsWith(p.slice(0, -2)))),
    );
    expect(left).toEqual([]);
  });
});
