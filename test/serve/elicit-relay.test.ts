/**
 * The relay that lets stateless `serve --http` ask the user: a record is found only by its id and the same
 * subject, only answers to questions waiting in this process are taken, and a question's wire id is fresh.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { expect, it } from 'vitest';
import { ElicitRelay } from '../../src/serve/elicit-relay.js';

/** A transport that records what it sends and lets the test play incoming messages. */
function fakeTransport(): Transport & { sent: JSONRPCMessage[] } {
  const sent: JSONRPCMessage[] = [];
  return {
    sent,
    start: async () => undefined,
    send: async (m) => void sent.push(m),
    close: async () => undefined,
  };
}

const initialize = (capabilities: Record<string, unknown>): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'c', version: '1' } },
});

it('opens a record only for a client that declares form elicitation, found again only by the same subject', async () => {
  const relay = new ElicitRelay();
  const ids: string[] = [];
  const plain = fakeTransport();
  const wrapped = relay.wrap(plain, { subject: 'sub:alice', sessionHeader: (id) => ids.push(id) });
  await wrapped.start();
  plain.onmessage?.(initialize({}));
  plain.onmessage?.(initialize({ elicitation: { url: {} } }));
  expect(ids).toEqual([]);
  plain.onmessage?.(initialize({ elicitation: {} }));
  expect(ids).toHaveLength(1);
  expect(relay.find(ids[0], 'sub:alice')?.client.info).toEqual({ name: 'c', version: '1' });
  expect(relay.find(ids[0], 'sub:bob')).toBeUndefined();
  expect(relay.find('not-a-known-id', 'sub:alice')).toBeUndefined();
});

it('sends a question under a fresh id and hands back only the answers waiting for it, with the original id', async () => {
  const relay = new ElicitRelay();
  let id = '';
  const first = fakeTransport();
  const opener = relay.wrap(first, { subject: undefined, sessionHeader: (x) => (id = x) });
  await opener.start();
  first.onmessage?.(initialize({ elicitation: { form: {} } }));
  const record = relay.find(id, undefined);
  if (record === undefined) throw new Error('no record');

  const inner = fakeTransport();
  const asker = relay.wrap(inner, { record, subject: undefined, sessionHeader: () => undefined });
  const received: JSONRPCMessage[] = [];
  asker.onmessage = (m) => void received.push(m);
  await asker.start();
  await asker.send({ jsonrpc: '2.0', id: 0, method: 'elicitation/create', params: {} });
  const wire = (inner.sent[0] as { id: string }).id;
  expect(wire).not.toBe(0);

  expect(relay.deliver(record, { jsonrpc: '2.0', id: 'someone-else', result: {} })).toBe(false);
  expect(
    relay.deliver(record, [
      { jsonrpc: '2.0', id: wire, result: {} },
      { jsonrpc: '2.0', method: 'x' },
    ]),
  ).toBe(false);
  expect(received).toEqual([]);
  expect(relay.deliver(record, { jsonrpc: '2.0', id: wire, result: { action: 'decline' } })).toBe(true);
  expect(received).toEqual([{ jsonrpc: '2.0', id: 0, result: { action: 'decline' } }]);
  // Answered once: the same answer again is not taken.
  expect(relay.deliver(record, { jsonrpc: '2.0', id: wire, result: {} })).toBe(false);
});
