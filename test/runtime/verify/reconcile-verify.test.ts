/**
 * `idemgen reconcile --verify` on SQLite and PostgreSQL: rows left pending with an unknown outcome (the answer
 * lost while the API's reads were down) are settled by the same plans the runtime uses, each decision with its
 * evidence; a row the lookup cannot settle (two matches) stays listed, and the exit code says so.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { buildToolBindings } from '../../../src/emit/handlers/bindings.js';
import { createToolRuntime } from '../../../packages/runtime/src/tools/index.js';
import { stampOf } from '../../../packages/runtime/src/verify/lookup.js';
import { runCli } from '../../helpers/cli.js';
import { loadApis, planApis } from '../../emit/client/helpers/spec-plan.js';
import { makeStore, type TestStore } from '../store/stores.js';
import { SHOP_SPEC, startShopServer, type ShopServer } from './shop-server.js';

describe.each(['sqlite', 'postgres'] as const)('reconcile --verify (%s)', (kind) => {
  let t: TestStore;
  let server: ShopServer;
  let dir: string;
  let url: string;
  beforeAll(async () => {
    t = await makeStore(kind, inject('pgUrl'), 'verify');
    server = await startShopServer();
    dir = mkdtempSync(join(tmpdir(), 'idemgen-reconcile-verify-'));
    writeFileSync(join(dir, 'shop.json'), JSON.stringify(SHOP_SPEC));
    const l = t.location;
    url =
      kind === 'sqlite'
        ? `sqlite:${l.filename}?table=${l.table}`
        : `${l.connectionString}${l.connectionString!.includes('?') ? '&' : '?'}table=${l.table}&schema=${l.schema}`;
  });
  afterAll(async () => {
    await server.close();
    await t.cleanup();
  });

  it('settles found and absent rows by reading the API, leaves the ambiguous one listed', async () => {
    const { apis } = await loadApis(['shop.json'], dir);
    const plan = planApis(apis)[0]!;
    const tools = createToolRuntime({
      bindings: buildToolBindings(plan, resolveConfig()),
      baseUrl: server.url,
      store: t.store,
      retry: { attempts: 1 },
      verify: { reads: 1, delayMs: 0 },
    });
    const name = (op: string) => tools.bindings.find((b) => b.operation === op)!.names.mcp;
    server.readsDown = true;
    server.drop.set('/zones', 'commit');
    const zone = await tools.call(name('POST /zones'), {
      body: { name: 'a.example' },
      idempotency_key: 'zone-0000000000000000a',
    });
    server.drop.set('/orders', 'before');
    const order = await tools.call(name('POST /orders'), {
      body: { item: 'desk' },
      idempotency_key: 'order-000000000000000a',
    });
    const eventKey = 'event-000000000000000a';
    server.events.push({ id: 'evt_old', kind: 'k', external_id: stampOf(eventKey, '') });
    server.drop.set('/events', 'commit');
    const event = await tools.call(name('POST /events'), { body: { kind: 'k' }, idempotency_key: eventKey });
    for (const out of [zone, order, event])
      expect(out).toMatchObject({ ok: false, error: { code: 'idempotency_outcome_unknown' } });
    expect([server.effects['/zones'], server.effects['/orders'], server.effects['/events']]).toEqual([1, undefined, 1]);

    server.readsDown = false;
    const run = await runCli(
      ['reconcile', '--store', url, '--verify', '--base-url', server.url, '--spec', 'shop.json', '--json'],
      dir,
    );
    const decisions = JSON.parse(run.stdout) as { key: string; decision: string; evidence: string }[];
    const by = Object.fromEntries(decisions.map((d) => [d.key, d]));
    expect(by['zone-0000000000000000a']).toMatchObject({
      decision: 'completed',
      evidence: 'GET /zones/{name} answered 2xx',
    });
    expect(by['order-000000000000000a']).toMatchObject({ decision: 'released' });
    expect(by['order-000000000000000a']!.evidence).toContain('no match');
    expect(by[eventKey]).toMatchObject({ decision: 'unknown' });
    expect(by[eventKey]!.evidence).toContain('2 matches (ambiguous)');
    expect(run.code).toBe(1);

    // The decisions hold: the zone replays the found resource, the order runs once, the event stays unknown.
    const again = await tools.call(name('POST /zones'), {
      body: { name: 'a.example' },
      idempotency_key: 'zone-0000000000000000a',
    });
    expect(again).toMatchObject({ ok: true, was_replay: true, result: { name: 'a.example' } });
    const rerun = await tools.call(name('POST /orders'), {
      body: { item: 'desk' },
      idempotency_key: 'order-000000000000000a',
    });
    expect(rerun).toMatchObject({ ok: true, was_replay: false });
    expect([server.effects['/zones'], server.effects['/orders'], server.effects['/events']]).toEqual([1, 1, 1]);
    const row = await t.store.get({ scope: '', key: 'zone-0000000000000000a' });
    expect(JSON.parse(row!.resolution!)).toMatchObject({ as: 'completed', by: 'idemgen reconcile --verify' });

    const text = await runCli(
      ['reconcile', '--store', url, '--verify', '--base-url', server.url, '--spec', 'shop.json'],
      dir,
    );
    expect(text.stdout).toContain('0 of 1 pending row(s) settled');
    expect(text.stdout).toContain('2 matches (ambiguous)');
  });
});
