/**
 * Tool schemas keep `idempotency_key` flat for the model; the body's own key field is dropped
 * wherever the carrier path puts it (nested, per oneOf variant), and the plan keeps the path the handler
 * writes the key back to. The keys fixture goes through the real loader, IR, classifier and tool emitter.
 */
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { classify } from '../../../src/classify/index.js';
import type { Plan } from '../../../src/classify/types.js';
import { resolveConfig } from '../../../src/config/types.js';
import { emitTools } from '../../../src/emit/tools/index.js';
import { loadApis } from '../client/helpers/spec-plan.js';

type Obj = Record<string, any>;
let plan: Plan;
let tools: Obj[];

beforeAll(async () => {
  const { apis, errors } = await loadApis(['shapes.yaml'], resolve(import.meta.dirname, '../../fixtures/keys'));
  expect(errors).toEqual([]);
  plan = classify(apis, resolveConfig());
  const out = emitTools(plan, resolveConfig());
  tools = JSON.parse(out.files.find((f) => f.path === 'tools/mcp/shapes.tools.json')!.contents).tools as Obj[];
});

const toolNamed = (name: string): Obj => tools.find((t) => t.name === name)!;
const carrierOf = (key: string) => plan.apis[0]!.entries.find((e) => e.operation.key === key)!.carrier;

describe('a nested native key in tool schemas', () => {
  it('JSON:API inside oneOf: one flat idempotency_key, no key field left in any variant', () => {
    const t = toolNamed('jsonApiOneOf');
    expect(t.inputSchema.required).toContain('idempotency_key');
    expect(t.inputSchema.properties.idempotency_key).toMatchObject({ type: 'string', maxLength: 64, minLength: 16 });
    const text = JSON.stringify(t.inputSchema.properties.body ?? null) + JSON.stringify(t.inputSchema.$defs ?? null);
    expect(text).not.toContain('idempotencyKey');
    expect(text).toContain('routingNumber');
    expect(text).toContain('sortCode');
    expect(carrierOf('POST /jsonapi-one-of')).toMatchObject({
      in: 'body',
      path: ['data', 'attributes', 'idempotencyKey'],
    });
  });

  it('per-variant paths: both the flat and the enveloped field are dropped', () => {
    const body = JSON.stringify(toolNamed('anyOfPaths').inputSchema);
    expect(body.match(/idempotency_key/g)).toHaveLength(2); // the property and its `required` entry
    expect(body).toContain('"request"');
  });

  it('a shared definition is copied, not edited: a tool whose body has no carrier keeps the field', () => {
    // UsAccount is shared by /one-of-all (keyed) and /one-of-some; both drop it, but the source spec is untouched.
    const root = plan.apis[0]!.api.root as Obj;
    expect(root.components.schemas.UsAccount.properties.idempotencyKey).toEqual({ type: 'string', maxLength: 64 });
    expect(root.components.schemas.UsAccount.required).toContain('idempotencyKey');
  });
});
