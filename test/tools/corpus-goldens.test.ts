/**
 * Golden files for every real tool list in ../shared/corpus/tools, run through the real pipeline
 * (loadInputs → buildApiModel → classify → emitTools). Every emitted schema compiles with Ajv 2020 and
 * every OpenAI tool passes the strict-mode checker.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classify } from '../../src/classify/index.js';
import { resolveConfig } from '../../src/config/types.js';
import { emitTools } from '../../src/emit/tools/index.js';
import { buildApiModel } from '../../src/ir/index.js';
import { loadInputs } from '../../src/load/index.js';
import { compileError, createAjv } from './ajv.js';
import { checkStrictName, checkStrictSchema } from './openai-strict.js';

import { CORPUS as CORPUS_ROOT } from '../helpers/corpus.js';
const CORPUS = join(CORPUS_ROOT, 'tools');
const corpusFiles = readdirSync(CORPUS).filter((f) => f.endsWith('.tools.json')).sort();

type Obj = Record<string, any>;

async function emitFor(file: string, mcpHeader = false) {
  const config = resolveConfig({ tools: { mcpHeader } });
  const { docs } = await loadInputs([join(CORPUS, file)]);
  const apis = docs.map((doc) => buildApiModel(doc).api);
  const plan = classify(apis, config);
  return { plan, ...emitTools(plan, config) };
}

function schemasOf(path: string, json: any): unknown[] {
  if (path.startsWith('tools/mcp/')) return (json.tools as Obj[]).flatMap((t) => [t.inputSchema, t.outputSchema].filter(Boolean));
  if (path.startsWith('tools/openai/')) return (json as Obj[]).map((t) => t.function.parameters);
  return (json as Obj[]).map((t) => t.input_schema);
}

describe.each(corpusFiles)('corpus tools %s', (file) => {
  it('matches the golden files', async () => {
    const { files } = await emitFor(file);
    expect(files.length).toBe(6);
    for (const f of files) await expect(f.contents).toMatchFileSnapshot(`__snapshots__/${file.replace(/\.tools\.json$/, '')}/${f.path}`);
  });

  it('emits schemas Ajv 2020 compiles, strict-valid OpenAI tools, and a required key on every write', async () => {
    const { files, plan } = await emitFor(file, true);
    const ajv = createAjv();
    for (const f of files.filter((x) => x.path.endsWith('.tools.json'))) {
      const json = JSON.parse(f.contents);
      for (const schema of schemasOf(f.path, json)) expect(compileError(ajv, schema), f.path).toBeUndefined();
      if (f.path.startsWith('tools/openai/')) {
        for (const t of json as Obj[]) {
          expect(checkStrictName(t.function.name)).toEqual([]);
          expect(checkStrictSchema(t.function.parameters), t.function.name).toEqual([]);
          expect(t.function.strict).toBe(true);
        }
      }
    }
    const mcp = JSON.parse(files.find((f) => f.path.startsWith('tools/mcp/') && f.path.endsWith('.tools.json'))!.contents).tools as Obj[];
    const names = JSON.parse(files.find((f) => f.path.startsWith('tools/mcp/') && f.path.endsWith('.names.json'))!.contents) as Record<string, string>;
    const byKey = new Map(plan.apis.flatMap((a) => a.entries).map((e) => [e.operation.key, e]));
    for (const tool of mcp) {
      const e = byKey.get(names[tool.name])!;
      const keyProp = e.carrier?.in === 'argument' && e.carrier.name in tool.inputSchema.properties ? e.carrier.name : 'idempotency_key';
      if (e.effect === 'write') {
        expect(tool.inputSchema.required, tool.name).toContain(keyProp);
        expect(tool.annotations.idempotentHint).toBe(true);
        if (keyProp === 'idempotency_key') expect(tool.inputSchema.properties.idempotency_key['x-mcp-header']).toBe('Idempotency-Key');
      } else {
        expect(tool.inputSchema.properties?.idempotency_key).toBeUndefined();
        expect(tool.annotations.readOnlyHint).toBe(true);
      }
    }
  });
});
