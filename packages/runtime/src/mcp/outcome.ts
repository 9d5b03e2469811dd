/**
 * A tool runtime's `ToolOutcome` as an MCP `CallToolResult` (structural, as in tool-result.ts): the
 * same JSON in `structuredContent` (for clients that read it) and as text (for the model, which only
 * reads `content`). A failure is a tool result with `isError`, not a JSON-RPC error, so the model sees
 * the API's message and whether the same key may be sent again.
 */
import type { ToolOutcome } from '../tools/types.js';
import { ERROR_META, REPLAY_META, type ReplayMeta, type ToolResultLike } from './tool-result.js';

export function outcomeToResult(outcome: ToolOutcome): ToolResultLike {
  if (!outcome.ok) {
    const { error } = outcome;
    return {
      content: [{ type: 'text', text: `${error.message}\n${JSON.stringify({ error })}` }],
      structuredContent: { error },
      isError: true,
      _meta: { [ERROR_META]: { code: error.code } },
    };
  }
  const body: Record<string, unknown> = { result: outcome.result, was_replay: outcome.was_replay };
  if (outcome.replay_evidence !== undefined) body.replay_evidence = outcome.replay_evidence;
  if (outcome.original_called_at !== undefined) body.original_called_at = outcome.original_called_at;
  if (outcome.replayable === false) body.replayable = false;
  if (outcome.resolved_by_user !== undefined) body.resolved_by_user = outcome.resolved_by_user;
  if (outcome.note !== undefined) body.note = outcome.note;
  if (outcome.verified !== undefined) body.verified = outcome.verified;
  if (outcome.cannot_undo === true) body.cannot_undo = true;
  const result: ToolResultLike = { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
  if (outcome.was_replay) {
    // Only what is known: a native replay without a creation time has no original time, so none is said.
    const meta: ReplayMeta = { wasReplay: true };
    if (outcome.original_called_at !== undefined) meta.originalCalledAt = outcome.original_called_at;
    if (outcome.replay_evidence !== undefined) meta.replayEvidence = outcome.replay_evidence;
    result._meta = { [REPLAY_META]: meta };
  }
  return result;
}
