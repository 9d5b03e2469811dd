/**
 * The tool runtime's `Human` over MCP elicitation (MCP 2025-11-25 `elicitation/create`, form mode): the server
 * asks the person through the client, on the stream of the tool call that needs the answer. Only a client
 * that declared the `elicitation` capability (with form mode) is asked; an error, a timeout, a decline or a
 * cancel counts as no answer, never as a yes.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ElicitResultSchema, type ClientCapabilities, type Implementation } from '@modelcontextprotocol/sdk/types.js';
import { scopeString, type KeyScope } from '../core/keys.js';
import type { HappenedAnswer, Human } from '../tools/types.js';

type CallExtra = Parameters<Parameters<Server['setRequestHandler']>[1]>[1];

/** What the server knows of the client behind one request. */
export interface ElicitingClient {
  capabilities?: ClientCapabilities;
  info?: Implementation;
}

/** A person answers in minutes, not seconds (the SDK's default request timeout is 60 s). */
const ELICIT_TIMEOUT_MS = 600_000;

/** Form mode: `elicitation: {}` (before modes existed) means form; `{ url: {} }` alone does not. */
export function canElicitForm(capabilities: ClientCapabilities | undefined): boolean {
  const e = capabilities?.elicitation as Record<string, unknown> | undefined;
  if (e === undefined || e === null || typeof e !== 'object') return false;
  return e.form !== undefined || e.url === undefined;
}

const CONFIRM_SCHEMA = {
  type: 'object' as const,
  properties: {
    confirm: { type: 'boolean' as const, title: 'Run it', description: 'Yes: run it now. No: do not run it.' },
  },
  required: ['confirm'],
};

const ANSWERS: Record<string, HappenedAnswer> = {
  happened: 'happened',
  did_not_happen: 'not-happened',
  dont_know: 'unknown',
};

const HAPPENED_SCHEMA = {
  type: 'object' as const,
  properties: {
    outcome: {
      type: 'string' as const,
      title: 'Did it happen?',
      oneOf: [
        { const: 'happened', title: 'It happened' },
        { const: 'did_not_happen', title: 'It did not happen (run it once more)' },
        { const: 'dont_know', title: "I don't know" },
      ],
    },
  },
  required: ['outcome'],
};

/** Who answered, as a recorded decision names them: the caller's dedup scope (its subject) and the client. */
export function whoAnswers(scope: string | KeyScope | undefined, client: ElicitingClient): string {
  const principal = scopeString(scope) || 'the local user';
  const app = client.info === undefined ? '' : ` (${client.info.name} ${client.info.version})`;
  return `${principal} via MCP elicitation${app}`;
}

/** The person behind this request's client, asked on the tool call's own stream. */
export function elicitingHuman(extra: CallExtra, who: string, timeoutMs = ELICIT_TIMEOUT_MS): Human {
  const ask = async (message: string, requestedSchema: object, signal?: AbortSignal) => {
    try {
      return await extra.sendRequest(
        { method: 'elicitation/create', params: { mode: 'form', message, requestedSchema } as never },
        ElicitResultSchema,
        { timeout: timeoutMs, signal: signal ?? extra.signal },
      );
    } catch {
      return undefined;
    }
  };
  return {
    who,
    confirm: async (message, signal) => {
      const r = await ask(message, CONFIRM_SCHEMA, signal);
      return r?.action === 'accept' && r.content?.confirm === true;
    },
    happened: async (message, signal) => {
      const r = await ask(message, HAPPENED_SCHEMA, signal);
      if (r?.action !== 'accept') return 'unknown';
      return ANSWERS[String(r.content?.outcome)] ?? 'unknown';
    },
  };
}
