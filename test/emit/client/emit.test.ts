import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { emitClient } from '../../../src/emit/client/index.js';
import { typeCheck, writeBatch } from './helpers/compile.js';
import { fixturePlans } from './helpers/fixture-plans.js';

const config = resolveConfig();

/** Calls that must NOT compile: a write without a key or scope, a key plus a scope, a hand-set carrier header. */
const TYPE_PROOF = `
import type { DedupStore } from "@idemgen/runtime";
import { createPaymentsClient } from "./payments.gen.js";
declare const store: DedupStore;
const c = createPaymentsClient({ baseUrl: "http://127.0.0.1:1", store });
// Without a store the native-key writes and the reads work; a write that needs the store does not compile.
const bare = createPaymentsClient({ baseUrl: "http://127.0.0.1:1" });
void bare.createCharge({ body: { amount: 1, currency: "usd" } }, { key: "k".repeat(24), headers: { "Stripe-Account": "acct_1" }, signal: AbortSignal.timeout(1000) });
void bare.getCharge({ path: { chargeId: "ch_1" } }, { headers: { "Stripe-Account": "acct_1" } });
// @ts-expect-error sendSms is fail-closed: it needs the dedup store the client was not given
void bare.sendSms({ body: { to: "+1", body: "x" } }, { key: "k".repeat(24) });
// @ts-expect-error an OP-5 saga records its intent in the store too
void bare.createBooking({ body: { room: "r" } }, { scope: { run: "r1" } });
const sms = { body: { to: "+15550100", body: "hi" } };
// @ts-expect-error fail-closed write without options
void c.sendSms(sms);
// @ts-expect-error an empty options object carries neither key nor scope
void c.sendSms(sms, {});
// @ts-expect-error key and scope at once is ambiguous
void c.sendSms(sms, { key: "k".repeat(24), scope: { thread: "t" } });
void c.sendSms(sms, { key: "k".repeat(24) });
void c.sendSms(sms, { scope: { thread: "t1", turn: "3" } });
// @ts-expect-error keyStrategy caller: a scope alone is not accepted
void c.createCharge({ body: { amount: 1, currency: "usd" } }, { scope: { thread: "t" } });
// @ts-expect-error the wrapper fills the Idempotency-Key carrier; callers cannot set it
void c.createCharge({ header: { "Idempotency-Key": "x" }, body: { amount: 1, currency: "usd" } }, { key: "k".repeat(24) });
// keyStrategy intent still takes an explicit, persisted key (an OP-8 checkpoint, a LangGraph node key)
void c.createTransfer({ body: { amount: 5 } }, { key: "k".repeat(24) });
void c.createBooking({ body: { room: "101" } }, { key: "k".repeat(24) });
void c.createBooking({ body: { room: "101" } }, { scope: { run: "r" } });
// @ts-expect-error an empty scope names no intent (fail-closed)
void c.sendSms(sms, { scope: {} });
// @ts-expect-error an empty scope names no intent (OP-5)
void c.createBooking({ body: { room: "101" } }, { scope: {} });
// @ts-expect-error an empty scope names no intent (OP-3 content key)
void c.putBlob({ path: { digest: "d" }, body: { data: "x" } }, { scope: {} });
// @ts-expect-error a scope holds string ids
void c.sendSms(sms, { scope: { turn: 3 } });
declare const dynamicScope: Record<string, string>;
void c.sendSms(sms, { scope: dynamicScope }); // not provably empty: checked at run time
declare const either: { key: string } | { scope: { thread: string } };
void c.sendSms(sms, either);
void c.putBlob({ path: { digest: "d" }, body: { data: "x" } }, { key: "k".repeat(24) });
void c.putBlob({ path: { digest: "d" }, body: { data: "x" } }, {});
// @ts-expect-error the request comes first and is required when the options are
void c.createRefund(undefined, { key: "k".repeat(24) });
void c.createRefund({}, { key: "k".repeat(24) });
// @ts-expect-error the body carrier field is filled in by the wrapper
void c.createTransfer({ body: { amount: 5, idempotency_key: "x" } }, { scope: { run: "r" } });
void c.putBlob({ path: { digest: "d" }, body: { data: "x" } });
// @ts-expect-error currency is an enum
void c.createCharge({ body: { amount: 1, currency: "gbp" } }, { key: "k".repeat(24) });
void c.putArtifact({ path: { digest: "d" }, body: new Uint8Array(1) });
void c.putArtifact({ path: { digest: "d" }, body: new Blob(["x"]) });
// @ts-expect-error a binary body is bytes, not a JSON object
void c.putArtifact({ path: { digest: "d" }, body: { data: "x" } });
const file: Promise<Blob> = c.downloadFile({ path: { fileId: "f" } });
void file;
async function rendered(): Promise<Blob> {
  return (await c.renderChart({ body: { title: "t" } }, { key: "k".repeat(24) })).result;
}
void rendered;
const read: Promise<{ id: string }> = c.getCharge({ path: { chargeId: "ch_1" } });
void read;
async function envelope(): Promise<boolean> {
  const r = await c.createCharge({ body: { amount: 1, currency: "usd" } }, { key: "k".repeat(24) });
  const id: string = r.result.id;
  // Native key: the original call's time is known only on a first call (SOP Step 7), never invented.
  const when: Date | undefined = r.originalCalledAt;
  // @ts-expect-error a native-key replay may carry no original time
  const always: Date = r.originalCalledAt;
  void always;
  return r.wasReplay && id.length > 0 && (when === undefined || when.getTime() > 0);
}
void envelope;
`;

describe('emitClient on the fixture specs', () => {
  it('matches the golden files', async () => {
    const plan = { apis: await fixturePlans(), diagnostics: [] };
    const { files } = emitClient(plan, config);
    expect(files.map((f) => f.path)).toEqual([
      'client/legacy.gen.ts',
      'client/payments.gen.ts',
      'client/shapes.gen.ts',
    ]);
    for (const f of files)
      await expect(f.contents).toMatchFileSnapshot(`__snapshots__/${f.path.slice('client/'.length)}`);
  });

  it('is deterministic: a second run is byte-identical', async () => {
    const a = emitClient({ apis: await fixturePlans(), diagnostics: [] }, config).files;
    const b = emitClient({ apis: await fixturePlans(), diagnostics: [] }, config).files;
    expect(b).toEqual(a);
  });

  it('type-checks under --strict --noUnusedLocals, and keyless writes do not compile', async () => {
    const { files } = emitClient({ apis: await fixturePlans(), diagnostics: [] }, config);
    const batch = new Map(files.map((f) => [f.path.slice('client/'.length), f.contents]));
    batch.set('type-proof.ts', TYPE_PROOF);
    const result = typeCheck(writeBatch('fixtures', batch));
    expect(Object.fromEntries(result)).toEqual(Object.fromEntries([...batch.keys()].map((k) => [k, []])));
  });

  it('skips inputs without HTTP operations', async () => {
    const [payments] = await fixturePlans();
    const toolOnly = { ...payments!, api: { ...payments!.api, operations: [] }, entries: [] };
    expect(emitClient({ apis: [toolOnly], diagnostics: [] }, config).files).toEqual([]);
  });
});
