/**
 * The handlers artifact: goldens, determinism, `tsc --strict` on the emitted modules (fixtures and the
 * repository's generated/), typed tool names, hostile spec strings kept inert, and the emitted module
 * itself driving a real API.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { emitHandlers } from '../../../src/emit/handlers/index.js';
import {
  BindingsJson,
  bindingsModuleWriter,
  handlerNames,
  writeHead,
  writeTail,
} from '../../../src/emit/handlers/render.js';
import type { EmittedFile } from '../../../src/emit/types.js';
import type { ApiModel } from '../../../src/ir/types.js';
import { parseToolBindings, type ToolBinding, type ToolRuntime } from '../../../packages/runtime/src/tools/index.js';
import { OUT_ROOT, typeCheck, writeBatch } from '../client/helpers/compile.js';
import { fixturePlans } from '../client/helpers/fixture-plans.js';
import { inlinePlan } from '../client/helpers/inline-spec.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { KEY, shopPlan } from '../../runtime/tools/helpers/shop-spec.js';
import { bindingsTextOf } from '../../helpers/bindings-text.js';

const config = resolveConfig();
const ROOT = join(import.meta.dirname, '../../..');

const HOSTILE = {
  openapi: '3.1.0',
  info: { title: 'h', version: '1' },
  paths: {
    '/x': {
      post: {
        operationId: 'x',
        summary: '"); globalThis.pwned = 1; ("\u2028*/ // `${1}`',
        requestBody: {
          content: { 'application/json': { schema: { type: 'object', properties: { ok: { type: 'string' } } } } },
        },
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};

async function allPlans() {
  return [...(await fixturePlans()), await shopPlan('handlers-emit')];
}

const TYPE_PROOF = `import { createShopTools } from './shop.tools.gen.js';
const tools = createShopTools({ baseUrl: 'http://127.0.0.1:1' });
void tools.call('createMessage', {});
// @ts-expect-error not a tool of this API
void tools.call('createMesage', {});
`;

describe('handlers artifact', () => {
  it('matches the goldens', async () => {
    const { files, diagnostics } = emitHandlers({ apis: await allPlans(), diagnostics: [] }, config);
    expect(diagnostics).toEqual([]);
    expect(files.map((f) => f.path)).toEqual([
      'handlers/legacy.bindings.gen.ts',
      'handlers/legacy.tools.gen.ts',
      'handlers/payments.bindings.gen.ts',
      'handlers/payments.tools.gen.ts',
      'handlers/shapes.bindings.gen.ts',
      'handlers/shapes.tools.gen.ts',
      'handlers/shop.bindings.gen.ts',
      'handlers/shop.tools.gen.ts',
    ]);
    for (const f of files)
      await expect(f.contents).toMatchFileSnapshot(`__snapshots__/${f.path.slice('handlers/'.length)}`);
  });

  it('writes each bindings file with one compact binding per line, then the shared values and definitions', async () => {
    const { files } = emitHandlers({ apis: await allPlans(), diagnostics: [] }, config);
    for (const f of files.filter((x) => x.path.endsWith('.bindings.gen.ts'))) {
      const text = bindingsTextOf(f.contents);
      const file = JSON.parse(text) as { tools: unknown[]; shared: unknown[]; defs: Record<string, unknown> };
      expect(file.tools.length).toBeGreaterThan(0);
      const tools = file.tools.map((b) => `  ${JSON.stringify(b)}`);
      const shared = file.shared.map((v) => `  ${JSON.stringify(v)}`);
      const defs = Object.entries(file.defs).map(([k, v]) => `  ${JSON.stringify(k)}:${JSON.stringify(v)}`);
      expect(Object.keys(file.defs)).toEqual(Object.keys(file.defs).sort());
      const list = (open: string, items: string[], close: string) =>
        items.length === 0 ? `${open}${close}` : `${open}\n${items.join(',\n')}\n${close}`;
      expect(text).toBe(
        `${list('{"tools":[', tools, ']')},\n${list('"shared":[', shared, ']')},\n${list('"defs":{', defs, '}')}}\n`,
      );
      expect(parseToolBindings(text)).toHaveLength(file.tools.length);
    }
  });

  it('is deterministic', async () => {
    const a = emitHandlers({ apis: await allPlans(), diagnostics: [] }, config).files;
    const b = emitHandlers({ apis: await allPlans(), diagnostics: [] }, config).files;
    expect(b).toEqual(a);
  });

  it('type-checks under --strict --noUnusedLocals (fixtures and generated/), and an unknown tool name does not compile', async () => {
    const { files } = emitHandlers({ apis: await allPlans(), diagnostics: [] }, config);
    const ts = files.filter((f) => f.path.endsWith('.ts'));
    const batch = new Map(ts.map((f) => [f.path.slice('handlers/'.length), f.contents]));
    // The repository's modules beside the fixtures' (same API names): prefixed, and so is their data import.
    for (const name of readdirSync(join(ROOT, 'generated/handlers')).filter((n) => n.endsWith('.ts')))
      batch.set(
        `repo-${name}`,
        readFileSync(join(ROOT, 'generated/handlers', name), 'utf8').replace(
          /from "\.\/([^"]+\.bindings\.gen\.js)"/,
          'from "./repo-$1"',
        ),
      );
    batch.set('type-proof.ts', TYPE_PROOF);
    const result = typeCheck(writeBatch('handlers', batch));
    expect(Object.fromEntries(result)).toEqual(Object.fromEntries([...batch.keys()].map((k) => [k, []])));
  });
});

/** Writes an API's handlers files (module + bindings module) side by side and imports the module. */
async function importModule(dir: string, files: readonly EmittedFile[]): Promise<Record<string, unknown>> {
  const base = join(OUT_ROOT, dir);
  writeBatch(dir, new Map());
  const runtime = relative(base, join(ROOT, 'packages/runtime/src/tools/index.js'));
  const at = (path: string): string => join(base, path.slice(path.lastIndexOf('/') + 1));
  for (const f of files)
    writeFileSync(
      at(f.path),
      f.contents.replaceAll(
        '"@idemgen/runtime/tools"',
        JSON.stringify(runtime.startsWith('.') ? runtime : `./${runtime}`),
      ),
    );
  const module = files.find((f) => f.path.endsWith('.tools.gen.ts'));
  return (await import(at(module!.path))) as Record<string, unknown>;
}

describe('the emitted module', () => {
  let api: FaultServer;
  beforeAll(async () => {
    api = await startFaultServer();
  });
  afterAll(() => api.close());

  it('keeps hostile spec strings inert: no code runs from a summary', async () => {
    const plan = await inlinePlan('handlers-hostile', 'hostile.json', HOSTILE, {});
    const { files } = emitHandlers({ apis: [plan], diagnostics: [] }, config);
    const mod = await importModule('handlers-hostile', files);
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
    const [binding] = mod.hostileToolBindings as ToolBinding[];
    expect(binding!.description).toContain('globalThis.pwned');
    // The bindings module writes its JSON as template literals: a backtick and `${…}` come back as text.
    expect(binding!.description).toContain('"); globalThis.pwned = 1; ("');
    expect(binding!.description).toContain('*/ // `${1}`');
  });

  it('a property and a definition named `__proto__` in a binding stay own properties (the bindings text through JSON.parse)', async () => {
    const binding = JSON.parse(
      '{"names":{"mcp":"x","openai":"x","anthropic":"x"},"operation":"POST /x","method":"x","http":{"method":"POST","path":"/x"},"effect":"read","mechanism":"none","description":"d","routes":[],"inputSchema":{"type":"object","properties":{"__proto__":{"$ref":"#/$defs/__proto__"}},"$defs":{"__proto__":{"type":"string"}}}}',
    ) as ToolBinding;
    const texts = { module: '', json: '' };
    const writer = (k: keyof typeof texts) => ({
      write: (c: string) => {
        texts[k] += c;
      },
      end: () => undefined,
    });
    const names = handlerNames({ id: 'proto' } as ApiModel);
    const out = writer('module');
    writeHead(out, { id: 'proto', file: 'proto.json' } as ApiModel, names, ['x']);
    const json = new BindingsJson(
      bindingsModuleWriter(writer('json'), { id: 'proto', file: 'proto.json' } as ApiModel),
    );
    json.write(binding);
    json.end();
    writeTail(out, names);
    const mod = await importModule('handlers-proto', [
      { path: 'handlers/proto.tools.gen.ts', contents: texts.module },
      { path: 'handlers/proto.bindings.gen.ts', contents: texts.json },
    ]);
    const [back] = mod.protoToolBindings as ToolBinding[];
    const props = back!.inputSchema.properties as object;
    expect(Object.keys(props)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(props)).toBe(Object.prototype);
    const defs = back!.inputSchema.$defs as object;
    expect(Object.keys(defs)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(defs)).toBe(Object.prototype);
    expect(back!.inputSchema).toEqual(binding.inputSchema);
  });

  it('create<Api>Tools drives the API: one effect for a repeated call', async () => {
    const { files } = emitHandlers({ apis: [await shopPlan('handlers-emit')], diagnostics: [] }, config);
    const mod = await importModule('handlers-run', files);
    const { createMemoryStore } = await import('../../../packages/runtime/src/index.js');
    const tools = (mod.createShopTools as (o: object) => ToolRuntime)({ baseUrl: api.url, store: createMemoryStore() });
    const args = { body: { text: 'hello' }, idempotency_key: KEY };
    expect(await tools.call('createNote', args)).toMatchObject({ ok: true, was_replay: false });
    expect(await tools.call('createNote', args)).toMatchObject({ ok: true, was_replay: true });
    expect(api.effects).toBe(1);
    expect(tools.list().map((b) => b.names.mcp)).toContain('createMessage');
  });
});
