/**
 * Shared by the tool-list tests (reference MCP servers in the main suite, the shared corpus in
 * `npm run test:corpus`): run one tool list through the real pipeline (loadInputs → buildApiModel →
 * classify → emitTools) and check what every emitted tool must satisfy.
 */
import { expect } from 'vitest';
import type { Plan } from '../../../src/classify/types.js';
import { classify } from '../../../src/classify/index.js';
import { resolveConfig } from '../../../src/config/types.js';
import { emitTools } from '../../../src/emit/tools/index.js';
import type { EmittedFile } from '../../../src/emit/types.js';
import { buildApiModel } from '../../../src/ir/index.js';
import { loadInputs } from '../../../src/load/index.js';
import { compileError, createAjv } from './ajv.js';
import { checkStrictName, checkStrictSchema } from './openai-strict.js';

type Obj = Record<string, any>;

export async function emitToolsFor(file: string, mcpHeader = false): Promise<{ plan: Plan; files: EmittedFile[] }> {
  const config = resolveConfig({ tools: { mcpHeader, formats: ['mcp', 'openai', 'anthropic'] } });
  const { docs } = await loadInputs([file]);
  const apis = docs.map((doc) => buildApiModel(doc).api);
  const plan = classify(apis, config);
  return { plan, ...emitTools(plan, config) };
}

function schemasOf(path: string, json: any): unknown[] {
  if (path.startsWith('tools/mcp/'))
    return (json.tools as Obj[]).flatMap((t) => [t.inputSchema, t.outputSchema].filter(Boolean));
  if (path.startsWith('tools/openai/')) return (json as Obj[]).map((t) => t.function.parameters);
  return (json as Obj[]).map((t) => t.input_schema);
}

/** Ajv 2020 compiles every schema, OpenAI tools are strict-valid, and every write requires its key. */
export function expectSafeTools(files: EmittedFile[], plan: Plan): void {
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
  const mcp = JSON.parse(files.find((f) => f.path.startsWith('tools/mcp/') && f.path.endsWith('.tools.json'))!.contents)
    .tools as Obj[];
  const names = JSON.parse(
    files.find((f) => f.path.startsWith('tools/mcp/') && f.path.endsWith('.names.json'))!.contents,
  ) as Record<string, string>;
  const byKey = new Map(plan.apis.flatMap((a) => a.entries).map((e) => [e.operation.key, e]));
  for (const tool of mcp) {
    const e = byKey.get(names[tool.name])!;
    const keyProp =
      e.carrier?.in === 'argument' && e.carrier.name in tool.inputSchema.properties
        ? e.carrier.name
        : 'idempotency_key';
    if (e.effect === 'write') {
      expect(tool.inputSchema.required, tool.name).toContain(keyProp);
      expect(tool.annotations.idempotentHint).toBe(true);
      if (keyProp === 'idempotency_key')
        expect(tool.inputSchema.properties.idempotency_key['x-mcp-header']).toBe('Idempotency-Key');
    } else {
      expect(tool.inputSchema.properties?.idempotency_key).toBeUndefined();
      expect(tool.annotations.readOnlyHint).toBe(true);
    }
  }
}
