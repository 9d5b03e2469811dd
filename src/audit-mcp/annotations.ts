/**
 * Annotation contradictions of MCP tool lists (live or from a file): readOnlyHint on a tool whose
 * name or description opens with a side-effect verb (classify/effect.ts then classifies it as a write:
 * a hint never makes a write look safe), and a destructive, non-idempotent tool whose input schema
 * has no key field.
 */
import { descriptionEffectVerb, nameWords } from '../classify/effect.js';
import { isKeyField, isKeyHeader, resolveHeuristics } from '../classify/heuristics.js';
import { makeFinding } from '../classify/rules.js';
import type { ResolvedConfig } from '../config/types.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { LoadedDoc } from '../load/types.js';
import { EFFECT_VERBS } from '../classify/heuristics.js';
import { MCP_RULES } from './rules.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function toolsOf(root: unknown): { items: unknown[]; base: string } {
  if (Array.isArray(root)) return { items: root, base: '' };
  if (isObject(root) && Array.isArray(root.tools)) return { items: root.tools, base: '/tools' };
  if (isObject(root) && isObject(root.result) && Array.isArray(root.result.tools))
    return { items: root.result.tools, base: '/result/tools' };
  return { items: [], base: '' };
}

export function annotationFindings(doc: LoadedDoc, config: ResolvedConfig): Diagnostic[] {
  if (doc.kind !== 'tools' || doc.format !== 'mcp') return [];
  const h = resolveHeuristics(config);
  const out: Diagnostic[] = [];
  const severity = (id: string) => MCP_RULES.find((r) => r.id === id)!.severity;
  const add = (id: string, message: string, pointer: string, hint: string) => {
    const f = makeFinding(config, id, message, { file: doc.file, pointer, hint }, severity(id));
    if (f) out.push({ ...f, ...doc.locate(pointer) });
  };
  const { items, base } = toolsOf(doc.root);
  items.forEach((item, i) => {
    if (!isObject(item) || typeof item.name !== 'string' || !isObject(item.annotations)) return;
    const a = item.annotations;
    const at = `${base}/${i}/annotations`;
    const props =
      isObject(item.inputSchema) && isObject(item.inputSchema.properties)
        ? Object.keys(item.inputSchema.properties)
        : [];
    const hasKey = props.some((p) => isKeyField(p, h) || isKeyHeader(p, h));
    const verb = nameWords(item.name).find((w) => h.writeVerbs.has(w) || h.readVerbs.has(w));
    const named = verb !== undefined && EFFECT_VERBS.has(verb);
    const described = typeof item.description === 'string' ? descriptionEffectVerb(item.description) : undefined;
    const keyField = props.find((p) => isKeyField(p, h));
    const why = named
      ? `its name says it writes (${verb})`
      : described
        ? `its description opens with "${described}"`
        : keyField
          ? `its input schema takes ${keyField}, an idempotency key`
          : undefined;
    if (a.readOnlyHint === true && why) {
      add(
        'read_only_hint_contradicts_name',
        `tool ${item.name} is annotated readOnlyHint: true but ${why}; it is classified as a write`,
        `${at}/readOnlyHint`,
        'set readOnlyHint: false (and destructiveHint as appropriate), or rename the tool if it only reads',
      );
    }
    if (a.destructiveHint === true && a.readOnlyHint !== true && a.idempotentHint !== true && !hasKey) {
      add(
        'destructive_tool_without_key',
        `tool ${item.name} is destructive (destructiveHint: true, not idempotentHint) and takes no idempotency key`,
        `${at}/destructiveHint`,
        'add a required idempotency_key to the input schema and dedupe on it, or mark the tool idempotentHint: true if repeating it changes nothing',
      );
    }
  });
  return out;
}
