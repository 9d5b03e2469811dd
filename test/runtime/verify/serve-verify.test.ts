/**
 * Verification through `idemgen serve` (a real process over stdio, the real MCP SDK client): the answer of a
 * write is lost after it committed, and the tool answer is the resource the lookup found (`was_replay`,
 * `verified`); a stamped write that never committed is released and runs once.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OPERATION_META } from '../../../packages/runtime/src/mcp/server.js';
import { ROOT } from '../../helpers/cli.js';
import { call, stdioClient } from '../../emit/mcp/client.js';
import { SHOP_SPEC, startShopServer, type ShopServer } from './shop-server.js';

const CLI = join(ROOT, 'test/helpers/idemgen-src.ts');
let api: ShopServer | undefined;

afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe('idemgen serve settles unknown outcomes by reading the API', () => {
  it('natural key found; stamped order not committed → run once', { timeout: 120_000 }, async () => {
    api = await startShopServer();
    const dir = mkdtempSync(join(tmpdir(), 'idemgen-serve-verify-'));
    writeFileSync(join(dir, 'shop.json'), JSON.stringify(SHOP_SPEC));
    const client = await stdioClient([
      CLI,
      'serve',
      join(dir, 'shop.json'),
      '--store',
      `sqlite:${join(dir, 'dedup.sqlite')}`,
      '--base-url',
      api.url,
    ]);
    try {
      const { tools } = await client.listTools();
      const tool = (op: string) => tools.find((t) => t._meta?.[OPERATION_META] === op)!.name;
      api.drop.set('/zones', 'commit');
      const zone = await call(client, tool('POST /zones'), {
        body: { name: 'serve.example' },
        idempotency_key: 'serve-zone-00000000001',
      });
      expect(zone.isError, JSON.stringify(zone.content)).toBeFalsy();
      expect(zone.structuredContent).toMatchObject({
        result: { name: 'serve.example' },
        was_replay: true,
        verified: { shape: 'natural-key' },
      });
      expect(api.effects['/zones']).toBe(1);
      api.drop.set('/orders', 'before');
      const order = await call(client, tool('POST /orders'), {
        body: { item: 'rug' },
        idempotency_key: 'serve-order-0000000001',
      });
      expect(order.isError, JSON.stringify(order.content)).toBeFalsy();
      expect(order.structuredContent).toMatchObject({ was_replay: false, result: { item: 'rug' } });
      expect(api.effects['/orders']).toBe(1);
    } finally {
      await client.close();
    }
  });
});
