/** What every decision step reads: the API, the config, the heuristics, a findings sink and the run's memos. */
import type { ResolvedConfig, OperationOverride } from '../config/types.js';
import type { Diagnostic, Severity } from '../diagnostics/diagnostic.js';
import type { ApiModel, Operation, ToolOperation } from '../ir/types.js';
import type { Heuristics } from './heuristics.js';
import { type ClassifyMemo, memoSlot } from './memo.js';
import { makeFinding } from './rules.js';
import type { Reason } from './types.js';

export interface ClassifyContext {
  api: ApiModel;
  config: ResolvedConfig;
  h: Heuristics;
  byKey: ReadonlyMap<string, Operation>;
  findings: Diagnostic[];
  /**
   * Whether the findings about a finished entry (entry-findings.ts, contradicted methods) are made: a caller
   * that never reads `plan.diagnostics` (`idemgen serve`) skips them. Decisions are the same either way.
   */
  entryFindings: boolean;
  /** Lookups remembered for this `classify` call only (memo.ts); never shared between runs. */
  memo: ClassifyMemo;
}

export function addFinding(
  ctx: ClassifyContext,
  id: string,
  message: string,
  pointer: string,
  opts: { hint?: string; severity?: Severity } = {},
): void {
  const where = { file: ctx.api.file, pointer, ...(opts.hint !== undefined ? { hint: opts.hint } : {}) };
  const d = makeFinding(ctx.config, id, message, where, opts.severity);
  if (d) ctx.findings.push(d);
}

export function reason(rule: string, detail: string, pointer?: string): Reason {
  return pointer === undefined ? { rule, detail } : { rule, detail, pointer };
}

/** The configured override keys, once per run: most configs have none, and every step of every operation asks. */
const OVERRIDE_KEYS = memoSlot('override keys', () => ({ keys: undefined as ReadonlySet<string> | undefined }));

/** Overrides match by operation key, then operationId, then generated name / tool name. */
export function findOverride(
  ctx: Pick<ClassifyContext, 'config' | 'memo'>,
  op: Operation,
): { key: string; override: OperationOverride } | undefined {
  const slot = ctx.memo.get(OVERRIDE_KEYS);
  slot.keys ??= new Set(Object.keys(ctx.config.overrides));
  if (slot.keys.size === 0) return undefined;
  const candidates = [op.key, op.kind === 'http' ? op.operationId : op.toolName, op.name];
  for (const c of candidates) {
    if (c !== undefined && Object.hasOwn(ctx.config.overrides, c)) return { key: c, override: ctx.config.overrides[c] };
  }
  return undefined;
}

/** An `x-*` extension from the operation, else its path item (HTTP), else undefined. */
export function extension(op: Operation, name: string): unknown {
  if (Object.hasOwn(op.extensions, name)) return op.extensions[name];
  if (op.kind === 'http' && Object.hasOwn(op.pathExtensions, name)) return op.pathExtensions[name];
  return undefined;
}

/** Pointer of a tool's input schema in its source file, per tool format. */
export function toolSchemaPointer(op: ToolOperation): string {
  switch (op.format) {
    case 'mcp':
      return `${op.source.pointer}/inputSchema`;
    case 'openai-chat':
      return `${op.source.pointer}/function/parameters`;
    case 'openai-responses':
      return `${op.source.pointer}/parameters`;
    case 'anthropic':
      return `${op.source.pointer}/input_schema`;
    default: {
      const never: never = op.format;
      throw new Error(`unhandled tool format ${String(never)}`);
    }
  }
}
