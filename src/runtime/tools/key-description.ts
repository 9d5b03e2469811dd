/**
 * The one description every idempotency-key argument carries (MCP, OpenAI and Anthropic tool files, and the
 * compact `tools/list`): the rule the model needs in one sentence, then who deduplicates and for how long.
 * The longer rule is the MCP server's `instructions` (`KEY_INSTRUCTIONS`, mcp/compact.ts).
 */

/** Who deduplicates a key: the downstream API (its own key), the tool itself (its own key argument), or this server. */
export type KeyOwner = 'api' | 'tool' | 'server';

/** `86400` → `24 hours`, `300` → `5 minutes`; whole days only from 48 h on. */
export function formatWindow(seconds: number): string {
  const unit = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (seconds >= 172_800 && seconds % 86_400 === 0) return unit(seconds / 86_400, 'day');
  if (seconds >= 3600 && seconds % 3600 === 0) return unit(seconds / 3600, 'hour');
  if (seconds >= 60 && seconds % 60 === 0) return unit(seconds / 60, 'minute');
  return unit(seconds, 'second');
}

const OWNER: Record<KeyOwner, string> = { api: 'The API', tool: 'The tool', server: 'This server' };

/** At most 140 characters for any window up to 9,999 days (tested). */
export function keyDescription(owner: KeyOwner, ttlSeconds?: number): string {
  const window = ttlSeconds !== undefined ? ` for ${formatWindow(ttlSeconds)}` : '';
  return `One new key per intended action; reuse the same key on every retry, also after a timeout. ${OWNER[owner]} deduplicates it${window}.`;
}
