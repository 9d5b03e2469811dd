/**
 * Classification remembers lookups per run (classify/memo.ts), never per process: two runs with different
 * configs in one process give the bytes each config gives in a process of its own. The spec is built so a
 * memo shared between runs would show: its write bodies are one `$ref`'d schema (the body-search memo), the
 * same field description recurs (the description-reading memo), and only config B names the field a key.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig, type UserConfig } from '../../src/config/types.js';
import { runPipeline } from '../../src/pipeline.js';
import { ROOT } from '../helpers/cli.js';

const note = 'Echoed back on the created object.';
const spec = {
  openapi: '3.0.3',
  info: { title: 'Ledger', version: '1' },
  servers: [{ url: 'https://ledger.example.test' }],
  paths: {
    '/entries': {
      post: {
        operationId: 'createEntry',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/EntryIn' } } } },
        responses: { '201': { description: 'created' } },
      },
    },
    '/transfers': {
      post: {
        operationId: 'createTransfer',
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/EntryIn' } } } },
        responses: { '201': { description: 'created' } },
      },
    },
  },
  components: {
    schemas: {
      EntryIn: {
        type: 'object',
        required: ['amount'],
        properties: {
          amount: { type: 'integer', description: note },
          ledger_token: { type: 'string', maxLength: 40, description: note },
        },
      },
    },
  },
};

const configs: Record<'a' | 'b', UserConfig> = {
  a: {},
  b: { heuristics: { keyFields: ['ledger_token'] } },
};

/** What a run produces: every file and every diagnostic, as one comparable text. */
async function runIn(dir: string, user: UserConfig): Promise<string> {
  const r = await runPipeline([join(dir, 'ledger.json')], resolveConfig(user), dir);
  const mechanisms = r.plan.apis.flatMap((a) => a.entries.map((e) => e.mechanism));
  return JSON.stringify({ mechanisms, files: r.files, plan: r.plan.diagnostics, emit: r.emitDiagnostics });
}

/** The same run in a fresh Node process (tsx loads the sources, as vitest does). */
function runInProcess(dir: string, user: UserConfig): string {
  const script = `
    const { resolveConfig } = await import(${JSON.stringify(join(ROOT, 'src/config/types.ts'))});
    const { runPipeline } = await import(${JSON.stringify(join(ROOT, 'src/pipeline.ts'))});
    const dir = ${JSON.stringify(dir)};
    const r = await runPipeline([dir + '/ledger.json'], resolveConfig(${JSON.stringify(user)}), dir);
    const mechanisms = r.plan.apis.flatMap((a) => a.entries.map((e) => e.mechanism));
    process.stdout.write(JSON.stringify({ mechanisms, files: r.files, plan: r.plan.diagnostics, emit: r.emitDiagnostics }));
  `;
  return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}

describe('classify memos live for one run', () => {
  it('two configs in one process give what each gives in its own process', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idemgen-memo-'));
    writeFileSync(join(dir, 'ledger.json'), JSON.stringify(spec));
    const a1 = await runIn(dir, configs.a);
    const b = await runIn(dir, configs.b);
    const a2 = await runIn(dir, configs.a);
    // The configs do classify differently (else the comparison below proves nothing).
    expect(JSON.parse(a1).mechanisms).not.toContain('native-key');
    expect(JSON.parse(b).mechanisms).toEqual(['native-key', 'native-key']);
    expect(a2).toBe(a1);
    expect(b).toBe(runInProcess(dir, configs.b));
    expect(a1).toBe(runInProcess(dir, configs.a));
  }, 120_000);
});
