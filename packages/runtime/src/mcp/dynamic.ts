/**
 * Dynamic mode for APIs too large to list (Stripe ≈ 470 tools): three meta-tools instead of one tool per
 * operation. `invoke_tool` hands its `arguments` to the same runtime call as a listed tool would, so the
 * key contract (a required `idempotency_key` on writes) and the dedup row are exactly the same.
 */
import type { ToolBinding } from '../tools/types.js';
import { listedTool, type ListedTool } from './tool-meta.js';
import { KEY_MAX_LENGTH, KEY_MIN_LENGTH } from '../core/key-limits.js';

export const SEARCH_TOOL = 'search_tools';
export const DESCRIBE_TOOL = 'describe_tool';
export const INVOKE_TOOL = 'invoke_tool';

export function metaTools(): ListedTool[] {
  return [
    {
      name: SEARCH_TOOL,
      description:
        'Search the API operations this server can call, by words in their names, descriptions and tags. Returns names to pass to describe_tool and invoke_tool.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Words to look for, e.g. "create customer".' },
          limit: { type: 'integer', minimum: 1, maximum: 50, description: 'At most this many results (default 10).' },
        },
        required: ['query'],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      _meta: {},
    },
    {
      name: DESCRIBE_TOOL,
      description:
        'The full description and input schema of one operation found with search_tools. Read it before invoke_tool.',
      inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      annotations: { readOnlyHint: true, openWorldHint: false },
      _meta: {},
    },
    {
      name: INVOKE_TOOL,
      description:
        'Call one operation by name. `arguments` must match the schema from describe_tool; for operations with side effects it includes the required idempotency_key — create it once per intent and send the same key when you retry, so the effect happens at most once.',
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'An operation name from search_tools.' },
          arguments: {
            type: 'object',
            description:
              'The operation\'s arguments as describe_tool shows them. A write\'s key goes in here beside them: {"body": {…}, "idempotency_key": "…"} (or the key argument describe_tool names).',
            properties: {
              idempotency_key: {
                type: 'string',
                minLength: KEY_MIN_LENGTH,
                maxLength: KEY_MAX_LENGTH,
                description: 'Writes only: one key per intended action, the SAME key on every retry of it.',
              },
            },
          },
        },
        required: ['name', 'arguments'],
      },
      annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: true },
      _meta: {},
    },
  ];
}

/** Lower-cased words, a plural `s` dropped (`customers` finds `customer`, `creates` finds `create`). */
const stem = (w: string): string => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w);
const words = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0)
    .map(stem);

/** Name hits weigh most, then tags, then the description; ties keep the binding order (stable output). */
function score(binding: ToolBinding, query: string[]): number {
  const name = new Set(words(`${binding.names.mcp} ${binding.operation}`));
  const tags = new Set(words((binding.tags ?? []).join(' ')));
  const text = new Set(words(`${binding.title ?? ''} ${binding.description}`));
  let total = 0;
  for (const w of query) total += (name.has(w) ? 3 : 0) + (tags.has(w) ? 2 : 0) + (text.has(w) ? 1 : 0);
  return total;
}

export interface SearchHit {
  name: string;
  title?: string;
  summary: string;
  effect: 'read' | 'write';
  mechanism: string;
  tags?: string[];
}

export function searchTools(bindings: readonly ToolBinding[], query: string, limit = 10): SearchHit[] {
  const q = words(query);
  const scored = bindings.map((b, i) => ({ b, i, s: score(b, q) })).filter((x) => x.s > 0);
  scored.sort((x, y) => y.s - x.s || x.i - y.i);
  return scored.slice(0, Math.max(1, Math.min(limit, 50))).map(({ b }) => {
    const hit: SearchHit = {
      name: b.names.mcp,
      summary: b.description.split('\n')[0]?.slice(0, 200) ?? '',
      effect: b.effect,
      mechanism: b.mechanism,
    };
    if (b.title !== undefined) hit.title = b.title;
    if (b.tags !== undefined && b.tags.length > 0) hit.tags = b.tags;
    return hit;
  });
}

export function describeTool(binding: ToolBinding, fixed: ReadonlySet<string>): ListedTool & { effect: string } {
  return { ...listedTool(binding, fixed), effect: binding.effect };
}
