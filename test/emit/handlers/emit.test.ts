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
import { handlerNames, writeBinding, writeHead, writeTail } from '../../../src/emit/handlers/render.js';
import type { ApiModel } from '../../../src/ir/types.js';
import type { ToolBinding, ToolRuntime } from '../../../src/runtime/tools/index.js';
import { OUT_ROOT, typeCheck, writeBatch } from '../client/helpers/compile.js';
import { fixturePlans } from '../client/helpers/fixture-plans.js';
import { inlinePlan } from '../client/helpers/inline-spec.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { KEY, shopPlan } from '../../runtime/tools/helpers/shop-spec.js';

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
      'handlers/legacy.tools.gen.ts',
      'handlers/payments.tools.gen.ts',
      'handlers/shapes.tools.gen.ts',
      'handlers/shop.tools.gen.ts',
    ]);
    for (const f of files)
      await expect(f.contents).toMatchFileSnapshot(`__snapshots__/${f.path.slice('handlers/'.length)}`);
  });

  it('is deterministic', async () => {
    const a = emitHandlers({ apis: await allPlans(), diagnostics: [] }, config).files;
    const b = emitHandlers({ apis: await allPlans(), diagnostics: [] }, config).files;
    expect(b).toEqual(a);
  });

  it('type-checks under --strict --noUnusedLocals (fixtures and generated/), and an unknown tool name does not compile', async () => {
    const { files } = emitHandlers({ apis: await allPlans(), diagnostics: [] }, config);
    const batch = new Map(files.map((f) => [f.path.slice('handlers/'.length), f.contents]));
    for (const name of readdirSync(join(ROOT, 'generated/handlers')))
      batch.set(`repo-${name}`, readFileSync(join(ROOT, 'generated/handlers', name), 'utf8'));
    batch.set('type-proof.ts', TYPE_PROOF);
    const result = typeCheck(writeBatch('handlers', batch));
    expect(Object.fromEntries(result)).toEqual(Object.fromEntries([...batch.keys()].map((k) => [k, []])));
  });
});

async function importModule(dir: string, path: string, contents: string): Promise<Record<string, unknown>> {
  const base = join(OUT_ROOT, dir);
  writeBatch(dir, new Map());
  const runtime = relative(base, join(ROOT, 'src/runtime/tools/index.js'));
  const target = join(base, path.slice(path.lastIndexOf('/') + 1));
  writeFileSync(
    target,
    contents.replaceAll('"idemgen/runtime/tools"', JSON.stringify(runtime.startsWith('.') ? runtime : `./${runtime}`)),
  );
  return (await import(target)) as Record<string, unknown>;
}

describe('the emitted module', () => {
  let api: FaultServer;
  beforeAll(async () => {
    api = await startFaultServer();
  });
  afterAll(() => api.close());

  it('keeps hostile spec strings inert: no code runs from a summary', async () => {
    const plan = await inlinePlan('handlers-hostile', 'hostile.json', HOSTILE, {});
    const [file] = emitHandlers({ apis: [plan], diagnostics: [] }, config).files;
    const mod = await importModule('handlers-hostile', file!.path, file!.contents);
    expect((globalThis as { pwned?: unknown }).pwned).toBeUndefined();
    const [binding] = mod.hostileToolBindings as ToolBinding[];
    expect(binding!.description).toContain('globalThis.pwned');
  });

  it('a property named `__proto__` in a binding stays an own property (JSON.parse, not an object literal)', async () => {
    const binding = JSON.parse(
      '{"names":{"mcp":"x","openai":"x","anthropic":"x"},"operation":"POST /x","method":"x","http":{"method":"POST","path":"/x"},"effect":"read","mechanism":"none","description":"d","routes":[],"inputSchema":{"type":"object","properties":{"__proto__":{"type":"string"}}}}',
    ) as ToolBinding;
    let text = '';
    const out = {
      write: (c: string) => {
        text += c;
      },
      end: () => undefined,
    };
    const names = handlerNames({ id: 'proto' } as ApiModel);
    writeHead(out, { id: 'proto', file: 'proto.json' } as ApiModel, names, ['x']);
    writeBinding(out, binding);
    writeTail(out, names);
    const mod = await importModule('handlers-proto', 'handlers/proto.tools.gen.ts', text);
    const [back] = mod.protoToolBindings as ToolBinding[];
    const props = back!.inputSchema.properties as object;
    expect(Object.keys(props)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(props)).toBe(Object.prototype);
  });

  it('create<Api>Tools drives the API: one effect for a repeated call', async () => {
    const { files } = emitHandlers({ apis: [await shopPlan('handlers-emit')], diagnostics: [] }, config);
    const mod = await importModule('handlers-run', files[0]!.path, files[0]!.contents);
    const { createMemoryStore } = await import('../../../src/runtime/index.js');
    const tools = (mod.createShopTools as (o: object) => ToolRuntime)({ baseUrl: api.url, store: createMemoryStore() });
    const args = { body: { text: 'hello' }, idempotency_key: KEY };
    expect(await tools.call('createNote', args)).toMatchObject({ ok: true, was_replay: false });
    expect(await tools.call('createNote', args)).toMatchObject({ ok: true, was_replay: true });
    expect(api.effects).toBe(1);
    expect(tools.list().map((b) => b.names.mcp)).toContain('createMessage');
  });
});
