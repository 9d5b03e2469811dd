/**
 * A local stand-in for the OpenAI HTTP API (node:http on 127.0.0.1): Chat Completions and Responses
 * answer from a script, one reply per request, and every request body is kept for assertions.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeOpenAi {
  url: string;
  requests: { path: string; body: Record<string, unknown> }[];
  close(): Promise<void>;
}

export async function startFakeOpenAi(replies: unknown[]): Promise<FakeOpenAi> {
  const requests: FakeOpenAi['requests'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      requests.push({
        path: req.url ?? '',
        body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>,
      });
      const reply = replies.shift();
      res.writeHead(reply === undefined ? 500 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply ?? { error: { message: 'script exhausted' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A Chat Completions response whose assistant message calls these tools. */
export function chatToolCalls(calls: { id: string; name: string; arguments: unknown }[]): unknown {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-test',
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        logprobs: null,
        message: {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: calls.map((c) => ({
            id: c.id,
            type: 'function',
            function: { name: c.name, arguments: JSON.stringify(c.arguments) },
          })),
        },
      },
    ],
  };
}

export function chatText(text: string): unknown {
  return {
    id: 'chatcmpl-2',
    object: 'chat.completion',
    created: 2,
    model: 'gpt-test',
    choices: [
      { index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content: text, refusal: null } },
    ],
  };
}
