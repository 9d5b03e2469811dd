/**
 * MCP tool annotations from the classification, not from the verb alone (README.md). MCP 2025-11-25
 * defines destructiveHint and idempotentHint as meaningful only when readOnlyHint is false.
 */
import type { PlanEntry } from '../../classify/types.js';
import type { ToolAnnotations } from '../../ir/types.js';

/** RFC 9110 §9.3: POST processes/creates (additive); PUT replaces, PATCH modifies, DELETE removes. */
function httpDestructive(method: string): boolean {
  return method !== 'post';
}

export function buildAnnotations(entry: PlanEntry, keyEnforced: boolean): ToolAnnotations {
  const op = entry.operation;
  const declared = op.kind === 'tool' ? (op.annotations ?? {}) : {};
  const out: ToolAnnotations = {};
  const title = declared.title ?? (op.kind === 'tool' ? op.title : op.summary);
  if (typeof title === 'string') out.title = title;
  out.readOnlyHint = entry.effect === 'read';
  if (entry.effect === 'write') {
    // A declared hint is the tool author's knowledge; absent one, MCP's default for tools is destructive.
    out.destructiveHint =
      typeof declared.destructiveHint === 'boolean'
        ? declared.destructiveHint
        : op.kind === 'http'
          ? httpDestructive(op.method)
          : true;
    // Once the key is required and deduped, a repeat with the same arguments has no further effect.
    // `method-idempotent`: the HTTP method itself makes the repeat harmless (RFC 9110 §9.2.2).
    out.idempotentHint = keyEnforced || entry.mechanism === 'method-idempotent' || declared.idempotentHint === true;
  }
  // Our own store (docs/concepts.md#mechanisms "own the store") is a closed world; every other API reaches outside.
  out.openWorldHint =
    entry.class === 'owned-store' ? false : typeof declared.openWorldHint === 'boolean' ? declared.openWorldHint : true;
  return out;
}
