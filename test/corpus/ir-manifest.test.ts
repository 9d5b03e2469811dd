import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApiModel } from '../../src/ir/index.js';
import { loadInputs } from '../../src/load/index.js';

// Real vendor specs and tool lists with their independently counted operations/tools.
import { CORPUS } from '../helpers/corpus.js';

function manifest(kind: 'openapi' | 'tools'): { file: string; format: string; count: number }[] {
  const [header, ...rows] = readFileSync(path.join(CORPUS, kind, 'MANIFEST.tsv'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));
  const col = (name: string) => header.indexOf(name);
  const countCol = col(kind === 'openapi' ? 'operations_count' : 'tools_count');
  return rows.map((r) => ({ file: r[col('file')], format: r[col('format')], count: Number(r[countCol]) }));
}

/** `train-travel-api/ (root: openapi.yaml)` → the folder (multi-file specs are loaded as folders). */
function inputOf(kind: string, file: string): string {
  const folder = /^(\S+)\/ \(root: .*\)$/.exec(file);
  return path.join(CORPUS, kind, folder ? folder[1] : file);
}

// MANIFEST format names → SpecFormat / ToolFormat.
const FORMAT = {
  'openapi3.0': 'openapi3.0',
  'openapi3.1': 'openapi3.1',
  swagger2: 'openapi2',
  'mcp-tools/list': 'mcp',
  'openai-chat-completions': 'openai-chat',
  'openai-responses': 'openai-responses',
  'anthropic-messages': 'anthropic',
} as Record<string, string>;

async function loadOne(input: string) {
  const loaded = await loadInputs([input], { cwd: CORPUS });
  expect(loaded.docs).toHaveLength(1);
  const { api, diagnostics } = buildApiModel(loaded.docs[0]);
  const all = [...loaded.diagnostics, ...diagnostics];
  expect(all.filter((d) => d.severity === 'error')).toEqual([]);
  return api;
}

describe('IR over the shared corpus manifests', () => {
  it.each(manifest('openapi'))('$file has $count operations', async ({ file, format, count }) => {
    const api = await loadOne(inputOf('openapi', file));
    expect(api.operations).toHaveLength(count);
    expect(api.format).toBe(FORMAT[format]);
    expect(api.operations.every((o) => o.kind === 'http')).toBe(true);
    expect(new Set(api.operations.map((o) => o.name)).size).toBe(count);
    expect(new Set(api.operations.map((o) => o.key)).size).toBe(count);
  });

  it.each(manifest('tools'))('$file has $count tools', async ({ file, format, count }) => {
    const api = await loadOne(inputOf('tools', file));
    expect(api.operations).toHaveLength(count);
    expect(api.format).toBe(FORMAT[format]);
    expect(api.operations.every((o) => o.kind === 'tool')).toBe(true);
  });
});
