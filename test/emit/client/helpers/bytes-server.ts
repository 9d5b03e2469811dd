/**
 * A real node:http server on 127.0.0.1 for raw bodies: it records every request's exact bytes and
 * content type, counts side effects per route, and answers by route with bytes, text or JSON. `resetNext`
 * makes the next request commit and then drop the connection (an ambiguous outcome for the client).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface BytesRequest {
  method: string;
  path: string;
  contentType: string | undefined;
  body: Buffer;
  headers: IncomingMessage['headers'];
}

export interface BytesServer {
  url: string;
  requests: BytesRequest[];
  /** Side effects committed (every request that reached a route). */
  readonly effects: number;
  /** The next request commits, then the socket is destroyed before any answer. */
  resetNext(): void;
  close(): Promise<void>;
}

/** Every byte value, twice, plus a lone 0xff 0xfe: not valid UTF-8, so any text round-trip would corrupt it. */
export const ALL_BYTES = Uint8Array.from([...Array(512).keys()].map((i) => i % 256).concat([0xff, 0xfe]));

/** A fixed, non-UTF-8 "PNG" per title: the bytes a render answers with. */
export function renderBytes(title: string): Uint8Array {
  const head = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  return Uint8Array.from([...head, ...Buffer.from(title, 'utf8'), 0x00, 0xff, 0x80]);
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function answer(res: ServerResponse, status: number, contentType: string | undefined, body: Uint8Array | string): void {
  res.writeHead(status, contentType === undefined ? {} : { 'content-type': contentType });
  res.end(body);
}

function route(r: BytesRequest, res: ServerResponse, effect: number): void {
  if (r.path.startsWith('/artifacts/') || r.path === '/echo') answer(res, 200, 'application/octet-stream', r.body);
  else if (r.path === '/renders') {
    const { title } = JSON.parse(r.body.toString('utf8')) as { title: string };
    answer(res, 200, 'image/png', renderBytes(`${title}#${effect}`));
  } else if (r.path.startsWith('/notes/')) answer(res, 200, 'text/html; charset=utf-8', `<p>${r.body.toString('utf8')}</p>`);
  else if (r.path === '/json') answer(res, 200, 'application/problem+json', JSON.stringify({ ok: true, n: effect }));
  else if (r.path.startsWith('/files/')) answer(res, 200, undefined, ALL_BYTES); // unlabeled bytes
  else if (r.path === '/unlabeled') answer(res, 200, undefined, 'plain words');
  else if (r.path === '/pdf') answer(res, 200, 'application/pdf', Buffer.from('%PDF-1.7\n\u00ff'));
  else answer(res, 404, 'text/plain', 'no route');
}

export async function startBytesServer(): Promise<BytesServer> {
  const requests: BytesRequest[] = [];
  let effects = 0;
  let reset = false;
  const server = createServer((req, res) => {
    void readAll(req).then((body) => {
      const r: BytesRequest = {
        method: req.method ?? '', path: new URL(req.url ?? '/', 'http://x').pathname, contentType: req.headers['content-type'], body, headers: req.headers,
      };
      requests.push(r);
      effects += 1; // committed
      if (reset) {
        reset = false;
        return void req.socket.destroy();
      }
      route(r, res, effects);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    get effects() {
      return effects;
    },
    resetNext: () => {
      reset = true;
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
