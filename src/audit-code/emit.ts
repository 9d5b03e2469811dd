/** Turns a code finding into a Diagnostic with file:line:col (1-based) and the configured severity. */
import type { Node } from 'ts-morph';
import { diagnostic, type Diagnostic, type Severity } from '../diagnostics/diagnostic.js';
import type { ResolvedConfig } from '../config/types.js';
import { CODE_RULES } from './rules.js';

export type Emit = (rule: string, node: Node, message: string, hint?: string) => void;

const DEFAULT: ReadonlyMap<string, Severity> = new Map(CODE_RULES.map((r) => [r.id, r.severity]));

export function makeEmitter(config: ResolvedConfig, file: string, out: Diagnostic[]): Emit {
  const seen = new Set<string>();
  return (rule, node, message, hint) => {
    const configured = config.severities[rule];
    if (configured === 'off') return;
    const { line, column } = node.getSourceFile().getLineAndColumnAtPos(node.getStart());
    const id = `${rule}\0${line}\0${column}\0${message}`;
    if (seen.has(id)) return;
    seen.add(id);
    out.push(
      diagnostic(rule, configured ?? DEFAULT.get(rule) ?? 'warning', message, {
        file,
        line,
        col: column,
        ...(hint ? { hint } : {}),
      }),
    );
  };
}
