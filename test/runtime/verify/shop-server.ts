/**
 * A local API that behaves like the real ones for verification: state kept in memory, list filters applied for
 * real (an `external_id` query, a `metadata[k]=v` deep-object query), reads addressed by name, and a switch that
 * commits a write and then loses the answer (the socket is destroyed), or loses it before committing.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

type Obj = Record<string, unknown>;

export interface ShopServer {
  url: string;
  zones: Map<string, Obj>;
  orders: Obj[];
  events: (Obj & { hiddenReads?: number })[];
  /** POSTs that reached the store, per path. */
  effects: Record<string, number>;
  /** GETs, per path. */
  reads: Record<string, number>;
  /** The next POST to this path loses its answer: after committing (`commit`) or before. */
  drop: Map<string, 'commit' | 'before'>;
  /** A committed event stays out of lists for this many reads (an eventually consistent index). */
  eventLag: number;
  /** Every GET answers 503 while set (the lookup fails: the outcome stays unknown). */
  readsDown: boolean;
  close(): Promise<void>;
}

export const SHOP_SPEC = {
  openapi: '3.0.3',
  info: { title: 'Shop', version: '1' },
  servers: [{ url: 'http://localhost' }],
  paths: {
    '/zones': {
      post: {
        operationId: 'createZone',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['name'],
                properties: { name: { type: 'string' }, ttl: { type: 'integer' } },
              },
            },
          },
        },
        responses: {
          '201': {
            description: 'created',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Zone' } } },
          },
        },
      },
    },
    '/zones/{name}': {
      get: {
        operationId: 'getZone',
        parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'the zone',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Zone' } } },
          },
          '404': { description: 'no such zone' },
        },
      },
    },
    '/orders': {
      post: {
        operationId: 'createOrder',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['item'],
                properties: {
                  item: { type: 'string' },
                  metadata: { type: 'object', additionalProperties: { type: 'string' } },
                },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'the order',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } },
          },
        },
      },
      get: {
        operationId: 'listOrders',
        parameters: [
          {
            name: 'metadata',
            in: 'query',
            style: 'deepObject',
            explode: true,
            schema: { type: 'object', additionalProperties: { type: 'string' } },
          },
        ],
        responses: {
          '200': {
            description: 'orders',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Order' } } },
                },
              },
            },
          },
        },
      },
    },
    '/events': {
      post: {
        operationId: 'createEvent',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['kind'],
                properties: { kind: { type: 'string' }, external_id: { type: 'string' } },
              },
            },
          },
        },
        responses: {
          '201': {
            description: 'the event',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Event' } } },
          },
        },
      },
      get: {
        operationId: 'listEvents',
        parameters: [{ name: 'external_id', in: 'query', schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'events',
            content: {
              'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Event' } } },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Zone: {
        type: 'object',
        properties: { name: { type: 'string' }, ttl: { type: 'integer' }, created_at: { type: 'string' } },
      },
      Order: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          item: { type: 'string' },
          metadata: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
      Event: {
        type: 'object',
        properties: { id: { type: 'string' }, kind: { type: 'string' }, external_id: { type: 'string' } },
      },
    },
  },
};

function readBody(req: IncomingMessage): Promise<Obj> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (c: Buffer) => {
      text += c.toString('utf8');
    });
    req.on('end', () => resolve(text === '' ? {} : (JSON.parse(text) as Obj)));
  });
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function startShopServer(): Promise<ShopServer> {
  let seq = 0;
  const s = {
    zones: new Map<string, Obj>(),
    orders: [] as Obj[],
    events: [] as (Obj & { hiddenReads?: number })[],
    effects: {} as Record<string, number>,
    reads: {} as Record<string, number>,
    drop: new Map<string, 'commit' | 'before'>(),
    eventLag: 0,
    readsDown: false,
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    if (req.method === 'GET') {
      s.reads[path] = (s.reads[path] ?? 0) + 1;
      if (s.readsDown) return send(res, 503, { message: 'down for maintenance' });
      if (path.startsWith('/zones/')) {
        const z = s.zones.get(decodeURIComponent(path.slice('/zones/'.length)));
        return z ? send(res, 200, z) : send(res, 404, { message: 'no such zone' });
      }
      if (path === '/orders') {
        const filters = [...url.searchParams].filter(([k]) => k.startsWith('metadata['));
        const data = s.orders.filter((o) =>
          filters.every(([k, v]) => (o.metadata as Obj | undefined)?.[k.slice('metadata['.length, -1)] === v),
        );
        return send(res, 200, { data });
      }
      if (path === '/events') {
        const want = url.searchParams.get('external_id');
        const visible = s.events.filter((e) => {
          if ((e.hiddenReads ?? 0) > 0) {
            e.hiddenReads! -= 1;
            return false;
          }
          return true;
        });
        return send(
          res,
          200,
          visible.filter((e) => want === null || e.external_id === want).map(({ hiddenReads: _, ...e }) => e),
        );
      }
      return send(res, 404, {});
    }
    void readBody(req).then((body) => {
      const drop = s.drop.get(path);
      s.drop.delete(path);
      if (drop === 'before') return res.socket?.destroy();
      let made: Obj;
      if (path === '/zones') {
        if (s.zones.has(String(body.name))) return send(res, 409, { message: 'zone already exists' });
        made = { name: body.name, ttl: body.ttl ?? 300, created_at: new Date().toISOString() };
        s.zones.set(String(body.name), made);
      } else if (path === '/orders') {
        made = { id: `ord_${++seq}`, item: body.item, metadata: body.metadata ?? {} };
        s.orders.push(made);
      } else if (path === '/events') {
        made = { id: `evt_${++seq}`, kind: body.kind, external_id: body.external_id };
        s.events.push({ ...made, hiddenReads: s.eventLag });
      } else return send(res, 404, {});
      s.effects[path] = (s.effects[path] ?? 0) + 1;
      if (drop === 'commit') return res.socket?.destroy();
      send(res, path === '/orders' ? 200 : 201, made);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    ...s,
    get eventLag() {
      return s.eventLag;
    },
    set eventLag(n: number) {
      s.eventLag = n;
    },
    get readsDown() {
      return s.readsDown;
    },
    set readsDown(v: boolean) {
      s.readsDown = v;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
