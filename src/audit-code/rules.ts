/**
 * Code-audit rules as data (STYLE habit 6): stable ids (the Diagnostic `code`), default severity and
 * the texts SARIF `tool.driver.rules` and the Markdown report show. Severities follow
 * `config.severities` like the spec rules in classify/rules.ts.
 */
import type { RuleMeta } from '../classify/rules.js';

export const CODE_RULES: readonly RuleMeta[] = [
  {
    id: 'key_generated_in_tool',
    severity: 'error',
    title: 'Idempotency key generated inside a tool handler',
    description:
      'The tool handler mints the idempotency key itself (randomUUID, uuid v4, nanoid, Math.random …), so every retry of the same tool call carries a fresh key and the provider runs the effect again. The key must arrive from the tool arguments or from checkpointed state, minted once per intent before the first attempt.',
    source: 'docs/concepts.md#good-keys',
  },
  {
    id: 'time_varying_key',
    severity: 'error',
    title: 'Idempotency key derived from the clock',
    description:
      'Date.now(), new Date() or performance.now() in an idempotency key changes between attempts, so a retry of the same intent is not recognised as a duplicate (and two intents in the same tick collide). Derive the key from the intent (arguments, a persisted id) instead.',
    source: 'docs/concepts.md#good-keys',
  },
  {
    id: 'tool_call_id_as_key',
    severity: 'warning',
    title: 'Tool-call id used as the idempotency key',
    description:
      'toolCallId / tool_call_id / tool_use_id identify one emission of a tool call by the model, not the intent: when the model re-emits the same call after a restart or a re-plan it gets a new id and the effect repeats. Use a key the agent persists per intent (an idempotency_key argument or state).',
    source: 'docs/concepts.md#good-keys (one per intended action, not per attempt)',
  },
  {
    id: 'side_effect_before_interrupt',
    severity: 'error',
    title: 'Side effect reachable before interrupt() in a LangGraph node',
    description:
      'A LangGraph node re-runs from the top when it resumes after interrupt(): a write placed before interrupt() runs once per resume, and a write after it repeats on a crash unless its key is read from checkpointed state. Move the write to its own node after the interrupt, or key it from state.',
    source: 'docs/concepts.md#checkpoint-keys',
  },
  {
    id: 'sdk_write_without_key',
    severity: 'warning',
    title: 'SDK write called without its native idempotency key',
    description:
      'The SDK accepts an idempotency key for this call (Stripe idempotencyKey request option, Square idempotencyKey, Adyen idempotencyKey, PayPal paypalRequestId, AWS ClientToken-style fields) but none is passed: a retry after a timeout can charge, create or send twice. AWS SDK v3 fills a missing token with a fresh UUID per call, which only dedupes its own internal retries.',
    source: 'docs/concepts.md#mechanisms (native-key)',
  },
  {
    id: 'write_tool_without_key',
    severity: 'warning',
    title: 'Write tool registered without an idempotency key',
    description:
      'A tool that writes — named or described with a write verb, or whose handler calls something that leaves the process (an HTTP call that is not a GET, a send/create/post on a third-party SDK, a child process, a file write) — has no idempotency_key field in its input schema, or declares one that its handler never reads, so transport retries of the tool call repeat the effect. readOnlyHint: true does not excuse it. Add a required idempotency_key and pass it to the downstream call (tool-dedup).',
    source: 'docs/concepts.md#side-effects, docs/concepts.md#tool-dedup',
  },
];
