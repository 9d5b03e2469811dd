/**
 * `idemgen validate` over every OpenAPI spec of the shared corpus manifest, run as a user runs it: all of
 * them are valid against their official schema (exit 0, no error). Also the GitHub description in
 * node_modules/@octokit/openapi (13 MB), whose cost the README states.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../helpers/corpus.js';
import { ROOT, runCli } from '../helpers/cli.js';

function manifest(): { file: string; format: string }[] {
  const [header, ...rows] = readFileSync(path.join(CORPUS, 'openapi', 'MANIFEST.tsv'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));
  return rows.map((r) => ({ file: r[header.indexOf('file')], format: r[header.indexOf('format')] }));
}

/** `train-travel-api/ (root: openapi.yaml)` names a multi-file spec: validate is given the folder. */
const inputOf = (file: string): string => /^(\S+)\/ \(root: .*\)$/.exec(file)?.[1] ?? file;

interface Checked {
  file: string;
  format: string;
  valid: boolean;
  diagnostics: { severity: string; code: string }[];
}

async function validate(input: string, cwd: string): Promise<{ code: number; files: Checked[] }> {
  const run = await runCli(['validate', input, '--format', 'json'], cwd);
  expect(run.stderr).not.toMatch(/internal error/);
  return { code: run.code, files: (JSON.parse(run.stdout) as { files: Checked[] }).files };
}

describe('idemgen validate over corpus/openapi', () => {
  it.each(manifest())('$file is a valid $format document', { timeout: 300_000 }, async ({ file, format }) => {
    const { code, files } = await validate(inputOf(file), path.join(CORPUS, 'openapi'));
    expect(files).toHaveLength(1);
    expect(files[0].format).toBe(format.replace('swagger2', 'openapi2'));
    expect(files[0].diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(files[0].valid).toBe(true);
    expect(code).toBe(0);
  });

  it('the current GitHub REST description (@octokit/openapi, 13 MB) is valid', { timeout: 300_000 }, async () => {
    const { code, files } = await validate('node_modules/@octokit/openapi/generated/api.github.com.json', ROOT);
    expect(files.map((f) => [f.format, f.valid, f.diagnostics.length])).toEqual([['openapi3.0', true, 0]]);
    expect(code).toBe(0);
  });
});
