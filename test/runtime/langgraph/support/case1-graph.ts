import { Annotation, END, START, StateGraph, interrupt, type BaseCheckpointSaver } from '@langchain/langgraph';
import type { DedupStore } from '../../../../packages/runtime/src/store/types.js';
import {
  idempotentInNode,
  keepIdempotencyKey,
  mintStateKey,
  type NodeConfig,
} from '../../../../packages/runtime/src/langgraph/index.js';
import { sendMessage } from './mail-provider.js';

/**
 * SOP Case 1, built as the SOP resolves it: classify → propose → interrupt for human review → send,
 * with both layers — the send in a downstream node (topology) AND a fail-closed dedup keyed by
 * `send_email_idempotency_key`, minted before the interrupt and checkpointed (OP-4/OP-2 + OP-6).
 */
const SupportState = Annotation.Root({
  ticket: Annotation<{ from: string; text: string }>(),
  category: Annotation<string>(),
  draft: Annotation<string>(),
  decision: Annotation<string>(),
  send_email_idempotency_key: Annotation<string | null>({ reducer: keepIdempotencyKey, default: () => null }),
  sent: Annotation<{ messageId: string; wasReplay: boolean } | null>({ reducer: (_a, b) => b, default: () => null }),
});

interface Case1Hooks {
  /** Called as the send node starts and after the send returns (crash points for the restart test). */
  beforeSend?: () => Promise<void>;
  afterSend?: () => Promise<void>;
}

export interface Case1Deps {
  store: DedupStore;
  providerUrl: string;
  checkpointer: BaseCheckpointSaver;
  leaseMs?: number;
  hooks?: Case1Hooks;
}

/** Deterministic stand-ins for the model calls; what matters here is where the side effect sits. */
function classifyTicket(text: string): string {
  return /refund|charge|invoice/i.test(text) ? 'billing' : 'general';
}

export function buildCase1Graph(deps: Case1Deps) {
  const sendEmail = idempotentInNode(sendMessage, {
    operation: 'tool:send_email',
    store: deps.store,
    mechanism: 'fail-closed',
    key: 'state',
    leaseMs: deps.leaseMs,
    args: (_url, message) => message,
  });
  return new StateGraph(SupportState)
    .addNode('classify', (s) => ({ category: classifyTicket(s.ticket.text) }))
    .addNode('propose', (s, config) => ({
      draft: `[${s.category}] Hello ${s.ticket.from}, we are on it: "${s.ticket.text}"`,
      // Born before the interrupt, in a node that returns it: checkpointed with the proposal.
      ...mintStateKey('tool:send_email', config as NodeConfig),
    }))
    .addNode('review', (s) => ({
      decision: interrupt<{ to: string; draft: string }, string>({ to: s.ticket.from, draft: s.draft }),
    }))
    .addNode('send', async (s, config) => {
      await deps.hooks?.beforeSend?.();
      const out = await sendEmail.withConfig(config as NodeConfig)(deps.providerUrl, {
        to: s.ticket.from,
        body: s.draft,
      });
      await deps.hooks?.afterSend?.();
      return { sent: { messageId: out.result.messageId, wasReplay: out.wasReplay } };
    })
    .addEdge(START, 'classify')
    .addEdge('classify', 'propose')
    .addEdge('propose', 'review')
    .addConditionalEdges('review', (s) => (s.decision === 'approve' ? 'send' : END))
    .addEdge('send', END)
    .compile({ checkpointer: deps.checkpointer });
}
