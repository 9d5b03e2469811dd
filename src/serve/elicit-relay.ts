/**
 * MCP elicitation over `serve --http`, which stays stateless (a fresh MCP server per request). Two things a
 * question to the user needs are missing there: a tool call's request never sees the client's `initialize`
 * (so the server does not know the client can be asked), and the client's answer arrives as a POST of its
 * own (so it reaches a new server, not the one waiting for it). The relay supplies both, in this process:
 * - a client whose `initialize` declares form elicitation gets an `Mcp-Session-Id`; the id only finds that
 *   record (its capabilities, its name, its subject), it is never required, and an id this process does not
 *   know is ignored (another instance, a restart): the request is served as today, without questions;
 * - a question goes out on the tool call's stream under a fresh random id, and a POST holding only answers
 *   to questions waiting here, from the same subject, is handed to the server that asked (202).
 * Behind a load balancer the answer must reach the instance that asked (affinity on `Mcp-Session-Id`);
 * otherwise the question times out and counts as no answer (not confirmed; the outcome stays unknown).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';
import { canElicitForm, type ElicitingClient } from '@idemgen/runtime/internal/mcp/elicit.js';

interface ClientRecord {
  subject: string | undefined;
  client: ElicitingClient;
  seen: number;
  /** Questions waiting for an answer: wire id → hand the answer to the server that asked. */
  waiting: Map<string, (answer: JSONRPCMessage) => void>;
}

/** A JSON-RPC body as the SDK's transport reads it (it refuses a larger one too). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export class ElicitRelay {
  private readonly records = new Map<string, ClientRecord>();

  constructor(
    private readonly max = 10_000,
    private readonly idleMs = 3_600_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The record an `Mcp-Session-Id` names, when this process holds it for the same subject. */
  find(header: string | string[] | undefined, subject: string | undefined): ClientRecord | undefined {
    if (typeof header !== 'string') return undefined;
    const record = this.records.get(header);
    if (record === undefined || record.subject !== subject) return undefined;
    if (this.now() - record.seen > this.idleMs && record.waiting.size === 0) {
      this.records.delete(header);
      return undefined;
    }
    record.seen = this.now();
    // Most recently used last: the oldest goes first when the table is full.
    this.records.delete(header);
    this.records.set(header, record);
    return record;
  }

  private open(subject: string | undefined, client: ElicitingClient): string {
    for (const [id, old] of this.records) {
      if (this.records.size < this.max) break;
      if (old.waiting.size === 0) this.records.delete(id);
    }
    const id = randomUUID();
    this.records.set(id, { subject, client, seen: this.now(), waiting: new Map() });
    return id;
  }

  /** Hands answers to the questions waiting for them; `true` when every message was such an answer. */
  deliver(record: ClientRecord, body: unknown): boolean {
    const messages = Array.isArray(body) ? body : [body];
    const answers = messages.filter(
      (m): m is JSONRPCMessage =>
        (isJSONRPCResultResponse(m) || isJSONRPCErrorResponse(m)) && record.waiting.has(String(m.id)),
    );
    if (answers.length === 0 || answers.length !== messages.length) return false;
    for (const answer of answers) {
      const id = String((answer as { id: string | number }).id);
      const hand = record.waiting.get(id);
      record.waiting.delete(id);
      hand?.(answer);
    }
    return true;
  }

  /**
   * One request's transport, seen through the relay: a client's `initialize` that declares elicitation opens
   * a record (and `sessionHeader` puts its id on the answer); with a record, questions get unique wire ids.
   */
  wrap(
    inner: Transport,
    request: { record?: ClientRecord; subject: string | undefined; sessionHeader: (id: string) => void },
  ): Transport {
    const mine = new Set<string>();
    const forget = () => {
      for (const id of mine) request.record?.waiting.delete(id);
      mine.clear();
    };
    const outer: Transport = {
      start: () => {
        inner.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
          if (isInitializeRequest(message) && canElicitForm(message.params.capabilities)) {
            const id = this.open(request.subject, {
              capabilities: message.params.capabilities,
              info: message.params.clientInfo,
            });
            request.sessionHeader(id);
          }
          outer.onmessage?.(message, extra);
        };
        inner.onclose = () => {
          forget();
          outer.onclose?.();
        };
        inner.onerror = (err: Error) => outer.onerror?.(err);
        return inner.start();
      },
      send: (message: JSONRPCMessage, options?: TransportSendOptions) => {
        const record = request.record;
        if (record === undefined || !isJSONRPCRequest(message)) return inner.send(message, options);
        const wire = randomUUID();
        mine.add(wire);
        record.waiting.set(wire, (answer) => {
          mine.delete(wire);
          outer.onmessage?.({ ...answer, id: message.id } as JSONRPCMessage);
        });
        return inner.send({ ...message, id: wire }, options);
      },
      close: () => {
        forget();
        return inner.close();
      },
    };
    return outer;
  }
}

/** The body of a POST, parsed; `undefined` when it is too large or not JSON (the caller answers 400). */
export function readJsonBody(req: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES) return resolve({ ok: false });
      try {
        resolve({ ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
      } catch {
        resolve({ ok: false });
      }
    });
    req.on('error', () => resolve({ ok: false }));
  });
}
