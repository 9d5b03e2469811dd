/**
 * OP-5 needs the external id of what it created (SOP OP-5: reconcile finds it, compensation undoes it).
 * A success response without `id` (and nothing in the request that addresses the inverse) is flagged at
 * generate time (`saga_external_id_missing`); at run time a 2xx is never an unknown outcome: the call is done,
 * marked `cannotUndo`, and a retry replays it without calling again. Real node:http server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitClient } from '../../../src/emit/client/index.js';
import { resolveConfig } from '../../../src/config/types.js';
import type { EmitResult } from '../../../src/emit/types.js';
import { createMemoryStore } from '../../../packages/runtime/src/index.js';
import { jsonAnswer, startFaultServer, type FaultServer } from '../../helpers/fault-server.js';
import { fixturePlans } from './helpers/fixture-plans.js';
import { importClient, type ClientFactory } from './helpers/import-client.js';
import { inlinePlan } from './helpers/inline-spec.js';

const spec = {
  openapi: '3.0.3',
  info: { title: 'rooms', version: '1' },
  paths: {
    '/reservations': {
      post: {
        operationId: 'createReservation',
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', properties: { room: { type: 'string' } } } } },
        },
        responses: {
          201: {
            description: 'created',
            content: { 'application/json': { schema: { type: 'object', properties: { status: { type: 'string' } } } } },
          },
        },
      },
    },
    '/reservations/{reservationId}': {
      delete: {
        operationId: 'cancelReservation',
        parameters: [{ name: 'reservationId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 204: { description: 'gone' } },
      },
    },
    '/holds': {
      post: {
        operationId: 'createHold',
        responses: {
          200: {
            description: 'ok',
            content: { 'application/json': { schema: { allOf: [{ $ref: '#/components/schemas/Hold' }] } } },
          },
        },
      },
    },
    '/holds/{holdId}': {
      delete: {
        operationId: 'releaseHold',
        parameters: [{ name: 'holdId', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 204: { description: 'gone' } },
      },
    },
  },
  components: { schemas: { Hold: { type: 'object', properties: { id: { type: 'integer', readOnly: true } } } } },
};

const saga = (compensation: string) => ({
  class: 'compensatable' as const,
  mechanism: 'saga' as const,
  keyStrategy: 'intent' as const,
  compensation,
});
let emitted: EmitResult;
let createClient: ClientFactory;
let server: FaultServer;

beforeAll(async () => {
  const plan = await inlinePlan('saga-external-id', 'rooms.json', spec, {
    'POST /reservations': saga('DELETE /reservations/{reservationId}'),
    'POST /holds': saga('DELETE /holds/{holdId}'),
  });
  emitted = emitClient({ apis: [plan], diagnostics: [] }, resolveConfig());
  createClient = await importClient('saga-external-id', emitted.files, emitted.files[0]!.path, 'createRoomsClient');
  // Each request makes the reservation (the counted effect); the answer carries no id.
  server = await startFaultServer({ respond: () => jsonAnswer(201, { status: 'confirmed' }) });
});

afterAll(() => server.close());

describe('saga external id', () => {
  it('warns saga_external_id_missing at the success response of a create without id, and only there', () => {
    expect(emitted.diagnostics.map((d) => [d.code, d.severity, d.file, d.pointer])).toEqual([
      ['saga_external_id_missing', 'warning', 'rooms.json', '/paths/~1reservations/post/responses/201'],
    ]);
    expect(emitted.diagnostics[0]!.message).toContain('POST /reservations');
  });

  it('the payments fixture (Booking has id) gets no warning', async () => {
    expect(emitClient({ apis: await fixturePlans(), diagnostics: [] }, resolveConfig()).diagnostics).toEqual([]);
  });

  it('a response without id: done and marked cannot be undone (a 2xx is never unknown), and the retry replays it', async () => {
    const c = createClient({ baseUrl: server.url, store: createMemoryStore(), timeoutMs: 1000 });
    const options = { scope: { run: 'r-no-id' } };
    const first = (await c.createReservation!({ body: { room: '12' } }, options)) as {
      wasReplay: boolean;
      cannotUndo?: true;
    };
    expect(first).toMatchObject({ wasReplay: false, cannotUndo: true });
    expect(server.effectsOn('/reservations')).toBe(1);
    const again = (await c.createReservation!({ body: { room: '12' } }, options)) as {
      wasReplay: boolean;
      cannotUndo?: true;
    };
    expect(again).toMatchObject({ wasReplay: true, cannotUndo: true });
    expect(server.effectsOn('/reservations')).toBe(1);
  });
});
