/**
 * The serve cache (src/serve/cache.ts): a restart on unchanged specs and config lists the same tools
 * without analysing again, and nothing stale is ever served: a changed spec, a changed config value, a
 * changed file a `$ref` bundled in, or an unreadable entry each lead to a fresh analysis (and a rewritten
 * entry). The end-to-end cases run the CLI from source over stdio in a scratch folder of their own.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { hashBundledParts } from '../../src/cache/fingerprint.js';
import { resolveConfig } from '../../src/config/types.js';
import { readServeCache, serveCacheKey, writeServeCache } from '../../src/serve/cache.js';
import type { ServeAnalysis } from '../../src/serve/tools.js';
import { ROOT } from '../helpers/cli.js';
import { SHOP_SPEC } from './shop-spec.js';

const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const CLI = join(ROOT, 'test/helpers/idemgen-src.ts');

/** One `idemgen serve` start in `dir`: the listed tool names and whether the tools came from the cache. */
async function start(
  dir: string,
  extra: string[] = [],
  search?: string,
): Promise<{ names: string[]; cached: boolean; listing: string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      '--import',
      TSX,
      CLI,
      '--verbose',
      'serve',
      'shop.json',
      '--store',
      `sqlite:${join(dir, 'dedup.sqlite')}`,
      ...extra,
    ],
    cwd: dir,
    // tsx looks for tsconfig.json in the working directory; the repository's maps @idemgen/runtime… to the
    // runtime's sources (`paths`), as it does for every test, so this start needs no build either.
    env: { PATH: process.env.PATH ?? '', CI: 'true', TSX_TSCONFIG_PATH: join(ROOT, 'tsconfig.json') },
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const client = new Client({ name: 'serve-cache-test', version: '1.0.0' });
  try {
    await client.connect(transport);
    // Dynamic mode analyses after the handshake: a search waits for it (and for the entry being written).
    if (search !== undefined) {
      const found = await client.callTool({ name: 'search_tools', arguments: { query: search } });
      expect((found.structuredContent as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
    }
    const { tools } = await client.listTools();
    return {
      names: tools.map((t) => t.name).sort(),
      cached: err.includes('tools from the serve cache'),
      listing: JSON.stringify(tools),
    };
  } finally {
    await client.close();
  }
}

const entries = (dir: string): string[] =>
  readdirSync(join(dir, 'node_modules/.cache/idemgen')).filter((f) => f.startsWith('serve-'));

function scratch(spec: object = SHOP_SPEC): string {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-serve-cache-'));
  writeFileSync(join(dir, 'shop.json'), JSON.stringify(spec));
  return dir;
}

const json = (schema: object) => ({ required: true, content: { 'application/json': { schema } } });

const withOperation = (spec: typeof SHOP_SPEC) => ({
  ...spec,
  paths: {
    ...spec.paths,
    '/returns': {
      get: { operationId: 'listReturns', summary: 'Returns', responses: { '200': { description: 'ok' } } },
    },
  },
});

describe('serve cache, end to end', () => {
  it('reuses an unchanged analysis, and a changed spec or config value is analysed again', async () => {
    const dir = scratch();
    const first = await start(dir);
    expect(first.cached).toBe(false);
    expect(first.names).toHaveLength(3);
    expect(entries(dir)).toHaveLength(1);

    // The cached start lists exactly what the first one did (schemas, descriptions, annotations, order).
    const again = await start(dir);
    expect(again).toEqual({ ...first, cached: true });

    writeFileSync(join(dir, 'shop.json'), JSON.stringify(withOperation(SHOP_SPEC)));
    const changed = await start(dir);
    expect(changed.cached).toBe(false);
    expect(changed.names).toHaveLength(4);
    expect(changed.names.some((n) => /returns/i.test(n))).toBe(true);

    writeFileSync(join(dir, 'idemgen.config.json'), JSON.stringify({ select: { exclude: ['GET /returns'] } }));
    const configured = await start(dir);
    expect(configured.cached).toBe(false);
    expect(configured.names).toEqual(first.names);
    expect(configured.listing).toBe(first.listing);
    // Still one entry for this input: a new key overwrites it.
    expect(entries(dir)).toHaveLength(1);

    // --no-cache analyses even when the entry matches.
    expect((await start(dir, ['--no-cache'])).cached).toBe(false);
  }, 120_000);

  it('a full-mode and a --dynamic start on the same spec keep an entry each', async () => {
    const dir = scratch();
    expect((await start(dir)).cached).toBe(false);
    const dynamic = async () => (await start(dir, ['--dynamic'], 'order')).cached;
    expect(await dynamic()).toBe(false);
    expect(entries(dir)).toHaveLength(2);
    expect((await start(dir)).cached).toBe(true);
    expect(await dynamic()).toBe(true);
  }, 120_000);

  it('a start whose ref did not resolve is not remembered; the file that appears later is read', async () => {
    const shipments = SHOP_SPEC.paths['/shipments'];
    const spec = {
      ...SHOP_SPEC,
      paths: {
        ...SHOP_SPEC.paths,
        '/shipments': {
          post: { ...shipments.post, requestBody: json({ $ref: 'parts/shipment.json#/Shipment' }) },
        },
      },
    };
    const dir = scratch(spec);
    const cacheFolder = join(dir, 'node_modules/.cache/idemgen');
    expect((await start(dir)).cached).toBe(false);
    expect(existsSync(cacheFolder) ? entries(dir) : []).toEqual([]);
    mkdirSync(join(dir, 'parts'));
    const shipment = { type: 'object', required: ['carrier'], properties: { carrier: { type: 'string' } } };
    writeFileSync(join(dir, 'parts', 'shipment.json'), JSON.stringify({ Shipment: shipment }));
    const fixed = await start(dir);
    expect(fixed.cached).toBe(false);
    expect(fixed.listing).toMatch(/"carrier"/);
    expect(entries(dir)).toHaveLength(1);
    expect((await start(dir)).cached).toBe(true);
  }, 120_000);

  it('an unreadable entry is ignored and rewritten', async () => {
    const dir = scratch();
    const first = await start(dir);
    const [entry] = entries(dir);
    const file = join(dir, 'node_modules/.cache/idemgen', entry as string);
    writeFileSync(file, readFileSync(file, 'utf8').slice(0, 100));
    const damaged = await start(dir);
    expect(damaged).toEqual(first);
    expect(() => JSON.parse(readFileSync(file, 'utf8'))).not.toThrow();
    expect((await start(dir)).cached).toBe(true);
  }, 120_000);

  it('under the default table names the store DDL is the prebuilt text: no DDL entry, tables made', async () => {
    const dir = scratch();
    expect(await start(dir, ['--no-cache'])).toMatchObject({ cached: false });
    expect((await start(dir)).names).toHaveLength(3);
    const cacheFolder = join(dir, 'node_modules/.cache/idemgen');
    expect(readdirSync(cacheFolder).filter((f) => f.startsWith('store-ddl-'))).toEqual([]);
  }, 120_000);

  it('a store DDL entry whose text does not match its hash is rendered again (a fresh store still gets its tables)', async () => {
    const dir = scratch();
    // Other than the default names (those have prebuilt DDL and no entry).
    writeFileSync(join(dir, 'idemgen.config.json'), JSON.stringify({ sql: { dedupTable: 'shop_dedup' } }));
    await start(dir);
    const cacheFolder = join(dir, 'node_modules/.cache/idemgen');
    const ddlEntry = readdirSync(cacheFolder).find((f) => f.startsWith('store-ddl-'));
    expect(ddlEntry).toBeDefined();
    const file = join(cacheFolder, ddlEntry as string);
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { ddl: string };
    writeFileSync(file, JSON.stringify({ ...entry, ddl: 'SELECT 1;' }));
    rmSync(join(dir, 'dedup.sqlite'));
    // Had `SELECT 1;` been run instead, the start would stop on the missing dedup table.
    expect((await start(dir)).names).toHaveLength(3);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { ddl: string }).ddl).toBe(entry.ddl);
  }, 120_000);
});

describe('serve cache entries', () => {
  const analysis: ServeAnalysis = {
    apis: [{ id: 'shop', servers: ['https://shop.example.com'], schemes: [], bindings: [] }],
  };

  it('the key follows the spec bytes, the config and the serve options', () => {
    const dir = scratch();
    const spec = join(dir, 'shop.json');
    const config = resolveConfig({});
    const key = serveCacheKey([spec], config, { select: {} });
    expect(serveCacheKey([spec], config, { select: {} })).toBe(key);
    expect(serveCacheKey([spec], config, { select: { readOnly: true } })).not.toBe(key);
    expect(serveCacheKey([spec], resolveConfig({ select: { exclude: ['x'] } }), { select: {} })).not.toBe(key);
    writeFileSync(spec, JSON.stringify(withOperation(SHOP_SPEC)));
    expect(serveCacheKey([spec], config, { select: {} })).not.toBe(key);
  });

  it('is read back only under its key, and not once a bundled file changed', () => {
    const dir = scratch();
    const file = join(dir, 'entry.json');
    const part = join(dir, 'schemas.json');
    writeFileSync(part, '{"type":"object"}');
    writeServeCache(file, 'k1', analysis, hashBundledParts([{ parts: ['schemas.json'] }], dir));
    expect(readServeCache(file, 'k1')).toEqual(analysis);
    expect(readServeCache(file, 'k2')).toBeUndefined();
    writeFileSync(part, '{"type":"string"}');
    expect(readServeCache(file, 'k1')).toBeUndefined();
  });

  it('an entry that is not JSON, or not an entry, reads as none', () => {
    const dir = scratch();
    const file = join(dir, 'entry.json');
    for (const text of ['', '{"format":1,"key":"k1"', 'null', '[]', '{"format":1,"key":"k1","parts":{}}']) {
      writeFileSync(file, text);
      expect(readServeCache(file, 'k1')).toBeUndefined();
    }
  });
});
