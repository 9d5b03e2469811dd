/**
 * Code says why, not which ticket: a reader of a source file has no access to the tracker, and a ticket's
 * number tells them nothing the sentence next to it should not say itself. So no source, script or test
 * (comments and strings alike) cites an issue number. docs/decisions/ may, as history.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

/** The word with a number after it (any case, plural too, `#` or not), or a review round's numbered issue. */
const CITATION = /\bissues? #?\d|\bround \d+,? issue/i;

const SKIP = new Set(['node_modules', 'dist', 'fixtures', '__snapshots__', '__out__']);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|mts|cts|mjs|cjs|js|json)$/.test(name) ? [path] : [];
  });
}

describe('no code cites an issue number', () => {
  it('the pattern catches the forms that were there, and not the word on its own', () => {
    const issue = 'issue';
    for (const cited of [
      `The contract (${issue} 14): a binding`,
      `${issue[0]!.toUpperCase()}${issue.slice(1)} 24 item 3: a store that is down`,
      `(\`method-idempotent\`, ${issue} 25.3)`,
      `round 2 ${issue} 4`,
    ])
      expect({ cited, found: CITATION.test(cited) }).toEqual({ cited, found: true });
    for (const fine of ['if (issues.length > 0) return invalid(issues)', 'discoveryUrls(issuer)', 'sentry-mcp#106'])
      expect({ fine, found: CITATION.test(fine) }).toEqual({ fine, found: false });
  });

  it('in src/, packages/, scripts/, bin/ and test/', () => {
    const roots = ['src', 'packages', 'scripts', 'bin', 'test'].map((d) => join(ROOT, d));
    const files = roots.flatMap(sources);
    expect(files.length).toBeGreaterThan(500);
    const found = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (CITATION.test(line) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
