/**
 * Tool names: ONE rule for every target (the MCP, OpenAI and Anthropic files, the handlers' bindings and
 * `idemgen serve`), so a tool has the same name wherever a model sees it. OpenAI function names and
 * Anthropic tool names must match `^[A-Za-z0-9_-]{1,64}$`; MCP 2025-11-25 (SEP-986) also allows `.` and up
 * to 128 characters, but MCP clients hand tools on to model APIs with the 64 limit, so MCP follows the
 * stricter rule too. The rule (docs/decisions/0124-names-one-rule-for-every-format.md):
 * 1. every run of characters outside `[A-Za-z0-9_-]` becomes one `_` (an empty result becomes `tool`);
 * 2. a name still longer than 64, or one that two operations share after step 1, becomes its first
 *    characters + `_` + the first 8 hex digits of SHA-256(operation key), 64 characters at most;
 * 3. if that is taken anyway, `_2`, `_3`, … is appended to the hash (in the sorted order of operation keys).
 * The suffix comes from the operation key, so adding an operation does not rename the others.
 */
import { createHash } from 'node:crypto';
import type { ApiPlan } from '../../classify/types.js';
import type { Operation } from '../../ir/types.js';

export interface NameRule {
  invalid: RegExp;
  max: number;
}

export const TOOL_NAME: NameRule = { invalid: /[^A-Za-z0-9_-]+/g, max: 64 };

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

function withSuffix(base: string, suffix: string, max: number): string {
  return `${base.slice(0, max - suffix.length - 1)}_${suffix}`;
}

/** Assign a name to every `{ key, name }` (in the given, sorted order). Returns operation key → name. */
export function assignNames(tools: { key: string; name: string }[], rule: NameRule): Map<string, string> {
  const byName = new Map<string, string>();
  const byKey = new Map<string, string>();
  const cleaned = tools.map((t) => t.name.replace(rule.invalid, '_') || 'tool');
  const counts = new Map<string, number>();
  for (const c of cleaned) counts.set(c.slice(0, rule.max), (counts.get(c.slice(0, rule.max)) ?? 0) + 1);
  tools.forEach((tool, i) => {
    const clean = cleaned[i];
    let name =
      clean.length > rule.max || (counts.get(clean) ?? 0) > 1
        ? withSuffix(clean, shortHash(tool.key), rule.max)
        : clean;
    for (let n = 2; byName.has(name); n += 1) name = withSuffix(clean, `${shortHash(tool.key)}_${n}`, rule.max);
    byName.set(name, tool.key);
    byKey.set(tool.key, name);
  });
  return byKey;
}

/** An API's tool names per target (operation key → name); one rule, so the three maps are the same map. */
export type TargetNames = { mcp: Map<string, string>; openai: Map<string, string>; anthropic: Map<string, string> };

const namesByPlan = new WeakMap<ApiPlan, TargetNames>();

/** HTTP tools carry the client's method name (ir/names.ts), so both artifacts name a call alike. */
export function toolName(op: Operation): string {
  return op.kind === 'tool' ? op.toolName : op.name;
}

/**
 * Assigned over every entry (tools included), once per API plan: the tools files, the handlers' bindings
 * and their name union all read the same maps (read-only).
 */
export function targetNames(apiPlan: ApiPlan): TargetNames {
  let names = namesByPlan.get(apiPlan);
  if (names === undefined) {
    const named = apiPlan.entries.map((e) => ({ key: e.operation.key, name: toolName(e.operation) }));
    const one = assignNames(named, TOOL_NAME);
    names = { mcp: one, openai: one, anthropic: one };
    namesByPlan.set(apiPlan, names);
  }
  return names;
}
