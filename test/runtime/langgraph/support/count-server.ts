import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A real HTTP "mail provider" on 127.0.0.1 that counts every delivered send (the side effect). */
export interface CountServer {
  url: string;
  /** Bodies of every POST received, in arrival order: each one is a delivered message. */
  received: unknown[];
  /** Resolves when the n-th request has arrived (1-based). */
  arrived(n: number): Promise<void>;
  /** When true, requests are counted but never answered (a provider that committed, then hung). */
  hold: boolean;
  close(): Promise<void>;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? null : (JSON.parse(text) as unknown);
}

export async function startCountServer(): Promise<CountServer> {
  const waiters: { n: number; resolve: () => void }[] = [];
  const held: ServerResponse[] = [];
  const state: CountServer = {
    url: '',
    received: [],
    hold: false,
    arrived: (n) =>
      state.received.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
    close: async () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req, res) => {
    void readJson(req).then((body) => {
      state.received.push(body);
      for (const w of waiters.filter((x) => state.received.length >= x.n)) w.resolve();
      if (state.hold) {
        held.push(res);
        return;
      }
      res.writeHead(202, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ messageId: `msg-${state.received.length}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** The raw side effect: POST a message to the provider; no key, no dedup (SendGrid v3 has none, SOP Case 1). */
export async function sendMessage(baseUrl: string, message: { to: string; body: string }): Promise<{ messageId: string }> {
  const res = await fetch(`${baseUrl}/v3/mail/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(message),
  });
  if (!res.ok) throw new Error(`mail provider answered ${res.status}`);
  return (await res.json()) as { messageId: string };
}
