/**
 * `idemgen audit --format json`, run as a user runs it, reports exactly the operation count of every
 * shared-corpus spec (path operations; webhooks excluded) and the tool count of every tool list.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/corpus.js';
import { runCli } from '../helpers/cli.js';

function manifest(kind: 'openapi' | 'tools'): { file: string; count: number }[] {
  const [header, ...rows] = readFileSync(path.join(CORPUS, kind, 'MANIFEST.tsv'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));
  const countCol = header.indexOf(kind === 'openapi' ? 'operations_count' : 'tools_count');
  return rows.map((r) => ({ file: r[header.indexOf('file')], count: Number(r[countCol]) }));
}

/** `train-travel-api/ (root: openapi.yaml)` names a multi-file spec: the audit is given the folder. */
const inputOf = (file: string): string => /^(\S+)\/ \(root: .*\)$/.exec(file)?.[1] ?? file;

describe.each(['openapi', 'tools'] as const)('idemgen audit --format json over corpus/%s', (kind) => {
  it.each(manifest(kind))('$file → $count', async ({ file, count }) => {
    const run = await runCli(
      ['audit', inputOf(file), '--format', 'json', '--fail-on', 'none'],
      path.join(CORPUS, kind),
    );
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { operations: { key: string }[] };
    expect(report.operations).toHaveLength(count);
    expect(
      report.operations.every((o) => (kind === 'tools' ? o.key.startsWith('tool:') : !o.key.startsWith('tool:'))),
    ).toBe(true);
  });
});
