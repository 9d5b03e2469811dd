/**
 * A JSON body goes out in the media type the operation declares: `application/json-patch+json` and
 * `application/merge-patch+json` reach the server as such, through the generated client and the tool runtime.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { emitClient } from '../../../src/emit/client/index.js';
import { buildToolBindings } from '../../../src/emit/handlers/bindings.js';
import { createMemoryStore } from '../../../packages/runtime/src/index.js';
import { createToolRuntime } from '../../../packages/runtime/src/tools/index.js';
import { importClient } from '../../emit/client/helpers/import-client.js';
import { loadApis, planApis } from '../../emit/client/helpers/spec-plan.js';

const body = (media: string, schema: object) => ({ required: true, content: { [media]: { schema } } });
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Patches', version: '1' },
  paths: {
    '/things/{id}': {
      patch: {
        operationId: 'patchThing',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: body('application/json-patch+json', {
          type: 'array',
          items: { type: 'object', properties: { op: { type: 'string' }, path: { type: 'string' }, value: {} } },
        }),
        responses: { '200': { description: 'ok' } },
      },
    },
    '/notes/{id}': {
      patch: {
        operationId: 'mergeNote',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: body('application/merge-patch+json', { type: 'object', properties: { text: { type: 'string' } } }),
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};

describe('declared JSON media types', () => {
  it('json-patch and merge-patch bodies are sent as declared on both paths', { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idemgen-media-'));
    writeFileSync(join(dir, 'patches.json'), JSON.stringify(SPEC));
    const { apis } = await loadApis(['patches.json'], dir);
    const plan = planApis(apis)[0]!;
    const seen: string[] = [];
    const server = createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => {
        text += c.toString();
      });
      req.on('end', () => {
        seen.push(`${req.url} ${req.headers['content-type']} ${text}`);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const { files } = emitClient({ apis: [plan], diagnostics: [] }, resolveConfig());
      const file = files.find((f) => f.path.startsWith('client/') && f.path.endsWith('.gen.ts'))!;
      expect(file.contents).toContain('json-patch');
      const name = /export function (create\w+Client)[<(]/.exec(file.contents)![1]!;
      const factory = await importClient('media-type', files, file.path, name);
      const client = factory({ baseUrl: url, store: createMemoryStore(), retry: { attempts: 1 } }) as unknown as Record<
        string,
        (r: unknown, o?: unknown) => Promise<unknown>
      >;
      const patch = [{ op: 'replace', path: '/name', value: 'x' }];
      await client.patchThing!({ path: { id: 't1' }, body: patch }, { key: 'media-type-key-00000001' });
      await client.mergeNote!({ path: { id: 'n1' }, body: { text: 'hi' } }, { key: 'media-type-key-00000002' });
      const tools = createToolRuntime({
        bindings: buildToolBindings(plan, resolveConfig()),
        baseUrl: url,
        store: createMemoryStore(),
        retry: { attempts: 1 },
      });
      const t = (op: string) => tools.bindings.find((b) => b.operation === op)!.names.mcp;
      expect(
        await tools.call(t('PATCH /things/{id}'), {
          id: 't2',
          body: patch,
          idempotency_key: 'media-type-key-00000003',
        }),
      ).toMatchObject({ ok: true });
      expect(
        await tools.call(t('PATCH /notes/{id}'), {
          id: 'n2',
          body: { text: 'hi' },
          idempotency_key: 'media-type-key-00000004',
        }),
      ).toMatchObject({ ok: true });
      expect(seen).toEqual([
        '/things/t1 application/json-patch+json [{"op":"replace","path":"/name","value":"x"}]',
        '/notes/n1 application/merge-patch+json {"text":"hi"}',
        '/things/t2 application/json-patch+json [{"op":"replace","path":"/name","value":"x"}]',
        '/notes/n2 application/merge-patch+json {"text":"hi"}',
      ]);
    } finally {
      server.close();
    }
  });
});
