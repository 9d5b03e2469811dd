/**
 * Stage 3: ApiModel[] → Plan. Pure (no I/O, clock or randomness): same input → same plan.
 * Every write goes through the mechanism order (docs/concepts.md#mechanisms) (entry.ts); findings are sorted for stable output.
 */
import type { ResolvedConfig } from '../config/types.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { ApiModel } from '../ir/types.js';
import type { ClassifyContext } from './context.js';
import { classifyOperation } from './entry.js';
import { resolveHeuristics } from './heuristics.js';
import type { ApiPlan, Plan } from './types.js';
import { checkResumeSafety } from './resume-safety.js';
import { ClassifyMemo } from './memo.js';

export { CLASS_OF } from './entry.js';

function compare(a: string | undefined, b: string | undefined): number {
  const x = a ?? '';
  const y = b ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

function sortDiagnostics(ds: Diagnostic[]): Diagnostic[] {
  return ds.sort(
    (a, b) =>
      compare(a.file, b.file) ||
      compare(a.pointer, b.pointer) ||
      compare(a.code, b.code) ||
      compare(a.message, b.message),
  );
}

/** `entryFindings: false`: no findings about finished entries (see `ClassifyContext`); the entries are the same. */
export interface ClassifyOptions {
  entryFindings?: boolean;
}

function classifyApi(
  api: ApiModel,
  config: ResolvedConfig,
  findings: Diagnostic[],
  memo: ClassifyMemo,
  opts: ClassifyOptions,
): ApiPlan {
  const ctx: ClassifyContext = {
    api,
    config,
    h: resolveHeuristics(config),
    byKey: new Map(api.operations.map((op) => [op.key, op])),
    findings,
    memo,
    entryFindings: opts.entryFindings !== false,
  };
  return { api, entries: api.operations.map((op) => classifyOperation(op, ctx)) };
}

export function classify(apis: ApiModel[], config: ResolvedConfig, opts: ClassifyOptions = {}): Plan {
  const diagnostics: Diagnostic[] = [];
  // One run's memos: they go with this call, while the documents they are keyed by live on through emit.
  const memo = new ClassifyMemo();
  const planned = apis.map((api) => classifyApi(api, config, diagnostics, memo, opts));
  // docs/concepts.md#checkpoint-keys: keys that cannot survive a framework resume (LangGraph node re-runs) are findings too.
  if (opts.entryFindings !== false)
    for (const p of planned) diagnostics.push(...checkResumeSafety(p.entries, { severities: config.severities }));
  return { apis: planned, diagnostics: sortDiagnostics(diagnostics) };
}
