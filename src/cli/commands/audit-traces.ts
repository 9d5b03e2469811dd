/**
 * `idemgen audit --traces FILE`: find repeated tool calls in a recorded run (OTLP JSON from the
 * collector's file exporter, or a JSONL of tool calls) and say which the runtime absorbed. Exit 1 when
 * a same-turn repeat reached the API more than once (the repeat docs/concepts.md#side-effects warns of, unguarded), else 0.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, diagnostic, InputError } from '../../diagnostics/diagnostic.js';
import { findDuplicates } from '../../traces/duplicates.js';
import { readToolCalls } from '../../traces/read.js';
import { renderTraceAudit } from '../../traces/render.js';
import type { CliContext } from '../context.js';

export interface AuditTracesArgs {
  traces?: string;
  window?: number;
  format?: string;
}

export async function auditTracesCommand(ctx: CliContext, args: AuditTracesArgs): Promise<number> {
  const file = resolve(ctx.cwd, args.traces as string);
  if (args.format !== undefined && args.format !== 'text' && args.format !== 'json') {
    throw new ConfigError([
      diagnostic('unsupported_trace_format', 'error', `--traces reports as text or json, not ${args.format}`),
    ]);
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError([diagnostic('trace_file_not_found', 'error', `Cannot read ${file}`, { file })]);
  }
  const { calls, diagnostics } = readToolCalls(text, file);
  if (diagnostics.length > 0) throw new InputError(diagnostics);
  const windowSeconds = args.window ?? 60;
  if (!(windowSeconds > 0))
    throw new ConfigError([diagnostic('invalid_window', 'error', '--window must be a positive number of seconds')]);
  const audit = findDuplicates(calls, { windowMs: windowSeconds * 1000 });
  ctx.logger.out(
    args.format === 'json' ? JSON.stringify(audit, null, 2) : renderTraceAudit(audit, args.traces as string),
  );
  return audit.groups.some((g) => g.kind === 'same-turn' && g.reachedApi > 1) ? 1 : 0;
}
