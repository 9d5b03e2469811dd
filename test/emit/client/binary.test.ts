/**
 * The generated payments client with raw bodies, against a real node:http server and a real SQLite dedup
 * store: an OP-3 upload of raw bytes arrives byte-identical and its binary answer is stored and replayed
 * byte-identical; different bytes are a different content key; a fail-closed write answering image/png
 * replays the same Blob; a text/markdown upload comes back as a string.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withRuntimeSources } from './helpers/import-client.js';
import { emitClient } from '../../../src/emit/client/index.js';
import { resolveConfig } from '../../../src/config/types.js';
import { makeStore, type TestStore } from '../../runtime/store/stores.js';
import { startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { ALL_BYTES, bytesRoutes, renderBytes } from './helpers/bytes-routes.js';
import { OUT_ROOT } from './helpers/compile.js';
import { fixturePlans } from './helpers/fixture-plans.js';

type Client = Record<string, (request: unknown, options?: unknown) => Promise<any>>;
let client: Client;
let server: FaultServer;
let store: TestStore;

beforeAll(async () => {
  const { files } = emitClient({ apis: await fixturePlans(), diagnostics: [] }, resolveConfig());
  const dir = join(OUT_ROOT, 'binary');
  mkdirSync(dir, { recursive: true });
  // The tsconfig `paths` mapping of the compile tests, done by hand: vitest resolves the relative paths.
  const text = withRuntimeSources(files.find((f) => f.path === 'client/payments.gen.ts')!.contents, dir);
  writeFileSync(join(dir, 'payments.gen.ts'), text);
  const mod = (await import(join(dir, 'payments.gen.ts'))) as {
    createPaymentsClient: (o: Record<string, unknown>) => Client;
  };
  server = await startFaultServer({ respond: bytesRoutes });
  store = await makeStore('sqlite', inject('pgUrl'), 'clientbin');
  client = mod.createPaymentsClient({ baseUrl: server.url, store: store.store, timeoutMs: 2000 });
});

afterAll(async () => {
  await server?.close();
  await store?.cleanup();
});

const bytes = async (b: unknown): Promise<Uint8Array> => {
  expect(b).toBeInstanceOf(Blob);
  return new Uint8Array(await (b as Blob).arrayBuffer());
};

describe('OP-3 raw upload (PUT /artifacts/{digest}, application/octet-stream both ways)', () => {
  it('uploads the exact bytes; the binary answer is stored and replayed byte-identical, without a second call', async () => {
    const before = server.effects;
    const request = { path: { digest: 'd1' }, body: ALL_BYTES };
    const first = await client.putArtifact!(request);
    const got = server.requests.at(-1)!;
    expect(got.contentType).toBe('application/octet-stream');
    expect(new Uint8Array(got.bytes)).toEqual(ALL_BYTES);
    expect(first.wasReplay).toBe(false);
    expect(await bytes(first.result)).toEqual(ALL_BYTES);

    // The same content as a Blob is the same content key (OP-3): replayed from the store.
    const again = await client.putArtifact!({ path: { digest: 'd1' }, body: new Blob([ALL_BYTES]) });
    expect(server.effects - before).toBe(1);
    expect(again.wasReplay).toBe(true);
    expect(await bytes(again.result)).toEqual(ALL_BYTES);
  });

  it('different bytes under the same path are a different key: a new upload, not a replay of the first', async () => {
    const before = server.effects;
    const other = ALL_BYTES.map((b) => b ^ 0x5a);
    const a = await client.putArtifact!({ path: { digest: 'd2' }, body: new Blob([ALL_BYTES]) });
    const b = await client.putArtifact!({ path: { digest: 'd2' }, body: new Blob([other]) });
    expect(server.effects - before).toBe(2);
    expect(b.wasReplay).toBe(false);
    expect(await bytes(a.result)).toEqual(ALL_BYTES);
    expect(await bytes(b.result)).toEqual(other);
  });
});

describe('fail-closed write with a binary answer (POST /renders → image/png)', () => {
  it('the duplicate replays the stored Blob byte-identical with its type', async () => {
    const before = server.effects;
    const options = { key: 'render-key-0000000000000001' };
    const first = await client.renderChart!({ body: { title: 'q3' } }, options);
    const second = await client.renderChart!({ body: { title: 'q3' } }, options);
    expect(server.effects - before).toBe(1);
    expect(second.wasReplay).toBe(true);
    expect(await bytes(first.result)).toEqual(renderBytes(`q3#${before + 1}`));
    expect(await bytes(second.result)).toEqual(await bytes(first.result));
    expect((second.result as Blob).type).toBe('image/png');
  });
});

describe('text upload (PUT /notes/{noteId}, text/markdown → text/html)', () => {
  it('sends the string with the spec media type and returns the text answer', async () => {
    const out = await client.putNote!({ path: { noteId: 'n1' }, body: '# hi ✓' }, { scope: { run: 'r1' } });
    expect(server.requests.at(-1)).toMatchObject({ contentType: 'text/markdown', bytes: Buffer.from('# hi ✓') });
    expect(out.result).toBe('<p># hi ✓</p>');
  });
});

describe('binary read (GET /files/{fileId}/content)', () => {
  it('returns a Blob even when the server does not label the bytes (the client pins what its type promises)', async () => {
    expect(await bytes(await client.downloadFile!({ path: { fileId: 'f' } }))).toEqual(ALL_BYTES);
  });

  it('an error answer is still read by its content type', async () => {
    await expect(client.getCharge!({ path: { chargeId: 'x' } })).rejects.toMatchObject({
      status: 404,
      body: 'no route',
    });
  });
});
