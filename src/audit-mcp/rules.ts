/** MCP annotation rules as data (ids, severities, texts), like classify/rules.ts. */
import type { RuleMeta } from '../classify/rules.js';

export const MCP_RULES: readonly RuleMeta[] = [
  {
    id: 'read_only_hint_contradicts_name',
    severity: 'error',
    title: 'readOnlyHint: true on a tool named like a write',
    description:
      'The tool is annotated readOnlyHint: true but its name has a side-effect verb (delete_*, create_*, send_* …) or its description opens with one ("Deletes a card"), or its input schema takes an idempotency key. Clients skip confirmation and retry read-only tools freely; idemgen does not trust the hint and classifies the tool as a write. Fix the annotation, or the name and description if it only reads.',
    source: 'MCP ToolAnnotations; docs/concepts.md#side-effects',
  },
  {
    id: 'destructive_tool_without_key',
    severity: 'error',
    title: 'Destructive tool without an idempotency key',
    description:
      'The tool is annotated destructiveHint: true and not idempotentHint, yet its input schema has no idempotency key, so a retried call repeats a destructive effect that cannot be undone.',
    source: 'MCP ToolAnnotations; docs/concepts.md#tool-dedup',
  },
  {
    id: 'mcp_server_failed',
    severity: 'error',
    title: 'Live MCP server could not be audited',
    description:
      'The server crashed, hung past --mcp-timeout, refused the connection or answered tools/list with something that is not a tool list.',
    source: 'MCP lifecycle (initialize), tools/list',
  },
];
