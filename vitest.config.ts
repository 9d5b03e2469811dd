import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const ROOT = fileURLToPath(new URL('.', import.meta.url));

/**
 * `@idemgen/runtime` and each of its subpaths (packages/runtime/package.json "exports", incl. `./internal/*.js`)
 * → the runtime's sources, as tsconfig.json's `paths` map them: tests run against the sources (no build needed)
 * and see one copy of each class, whether a module is reached through the package name or a relative path.
 */
export function runtimeSourceAliases(): { find: RegExp; replacement: string }[] {
  const pkg = join(ROOT, 'packages/runtime');
  const { exports } = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { import: { types: string } }>;
  };
  const toSource = (types: string): string =>
    join(pkg, types.replace(/^\.\/dist\/esm\//, 'src/').replace(/\.d\.ts$/, '.ts'));
  const literal = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return Object.entries(exports).flatMap(([subpath, target]) => {
    if (typeof target === 'string') return []; // ./package.json
    const name = `@idemgen/runtime${subpath.slice(1)}`;
    const [head, tail] = name.split('*') as [string, string | undefined];
    if (tail === undefined)
      return [{ find: new RegExp(`^${literal(name)}$`), replacement: toSource(target.import.types) }];
    // `./internal/*.js` → src/*.ts
    const [before, after] = toSource(target.import.types).split('*') as [string, string];
    return [{ find: new RegExp(`^${literal(head)}(.+)${literal(tail)}$`), replacement: `${before}$1${after}` }];
  });
}

// The main suite (`npm test`): needs only the repository, node_modules and the database binaries that
// test/setup/services.ts provides. The shared-corpus tests run in their own suite (vitest.corpus.config.ts).
export default defineConfig({
  resolve: {
    // Generated code imports the runtime package; tests run it against the sources (no build needed).
    alias: runtimeSourceAliases(),
  },
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/corpus/**', '**/node_modules/**'],
    globalSetup: ['test/setup/services.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
