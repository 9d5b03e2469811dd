/**
 * Tool selection (config `select`, `idemgen serve --include/--exclude/--read-only/--writes-only`): which
 * operations become tools. One rule for every tool-shaped artifact (tools, handlers, mcp) and for
 * `serve`, so a generated server and `serve` over the same config expose the same tools. The client and
 * the SQL still cover the whole API.
 */
import picomatch from 'picomatch';
import type { ApiPlan, Plan, PlanEntry } from '../classify/types.js';
import type { ToolSelection } from '../config/types.js';

const TAG_PREFIX = 'tag:';

/**
 * A pattern names a tag (`tag:billing`, or a bare word equal to a tag, case-insensitive) or is a glob
 * over the operation key (`POST /v1/charges*`, `tool:send_*`) or the operation's name.
 */
function matcher(pattern: string): (entry: PlanEntry) => boolean {
  if (pattern.toLowerCase().startsWith(TAG_PREFIX)) {
    const tag = pattern.slice(TAG_PREFIX.length).toLowerCase();
    return (e) => tagsOf(e).includes(tag);
  }
  const glob = picomatch(pattern, { nocase: true, dot: true });
  const tag = pattern.toLowerCase();
  return (e) => tagsOf(e).includes(tag) || glob(e.operation.key) || glob(nameOf(e));
}

const tagsOf = (e: PlanEntry): string[] =>
  e.operation.kind === 'http' ? e.operation.tags.map((t) => t.toLowerCase()) : [];
const nameOf = (e: PlanEntry): string => (e.operation.kind === 'tool' ? e.operation.toolName : e.operation.name);

function isEmptySelection(select: ToolSelection | undefined): boolean {
  return (
    select === undefined ||
    ((select.include ?? []).length === 0 &&
      (select.exclude ?? []).length === 0 &&
      !select.readOnly &&
      !select.writesOnly)
  );
}

/** A predicate over plan entries; everything passes an empty selection. */
export function entryFilter(select: ToolSelection | undefined): (entry: PlanEntry) => boolean {
  if (isEmptySelection(select) || select === undefined) return () => true;
  const include = (select.include ?? []).map(matcher);
  const exclude = (select.exclude ?? []).map(matcher);
  return (e) =>
    (include.length === 0 || include.some((m) => m(e))) &&
    !exclude.some((m) => m(e)) &&
    (!select.readOnly || e.effect === 'read') &&
    (!select.writesOnly || e.effect === 'write');
}

export function selectApi(apiPlan: ApiPlan, select: ToolSelection | undefined): ApiPlan {
  if (isEmptySelection(select)) return apiPlan;
  return { ...apiPlan, entries: apiPlan.entries.filter(entryFilter(select)) };
}

/** The plan with only the selected entries (the same object when nothing is selected out). */
export function selectPlan(plan: Plan, select: ToolSelection | undefined): Plan {
  if (isEmptySelection(select)) return plan;
  return { ...plan, apis: plan.apis.map((a) => selectApi(a, select)) };
}

/** Terminal-safe text for a usage line (tags and names are spec data). */
const shown = (s: string): string => JSON.stringify(s);

/**
 * Why a selection left no tools, for the one line `serve` prints: the tags the specs have (or that they have
 * none) when a tag pattern matched nothing, and an operation-key or name glob that would match.
 */
export function explainEmptySelection(plan: Plan, select: ToolSelection): string {
  const entries = plan.apis.flatMap((a) => a.entries).filter((e) => e.operation.kind === 'http');
  if (entries.length === 0) return 'the specs have no HTTP operations';
  const parts = [`the selection removed all ${entries.length} operations`];
  const tags = [...new Set(entries.flatMap((e) => (e.operation.kind === 'http' ? e.operation.tags : [])))].sort();
  const tagPatterns = (select.include ?? []).filter((p) => p.toLowerCase().startsWith(TAG_PREFIX));
  if (tagPatterns.length > 0 || (select.include ?? []).length > 0) {
    const MAX = 20;
    const list = tags.slice(0, MAX).map(shown).join(', ');
    parts.push(
      tags.length === 0
        ? 'the specs have no tags'
        : `the tags are ${list}${tags.length > MAX ? ` and ${tags.length - MAX} more` : ''}`,
    );
  }
  const sample = entries[0];
  if (sample !== undefined && sample.operation.kind === 'http') {
    const path = sample.operation.key.replace(/\{[^}]*\}.*$/, '');
    parts.push(
      `select by operation key or name instead, e.g. --include ${shown(`${path}*`)} or --include ${shown(nameOf(sample))}`,
    );
  }
  return parts.join('; ');
}
