/** Prints diagnostics stylishly (file, then position, severity, message, code). */
export { locateDiagnostics } from '../diagnostics/locate.js';
import { ConfigError, type Diagnostic, InputError } from '../diagnostics/diagnostic.js';
import { terminalText } from '../escape/index.js';
import { type Logger, paint } from './logger.js';
import { VERSION } from './version.js';

const ORDER = { error: 0, warning: 1, info: 2 } as const;

export function renderDiagnostics(diagnostics: Diagnostic[], color: boolean): string {
  const groups = new Map<string, Diagnostic[]>();
  const lines: string[] = [];
  // A diagnostic about no file (a store URL, a server, a missing package) is one line: no header, no totals.
  for (const d of diagnostics.filter((x) => x.file === undefined)) {
    const sev = paint(color, d.severity === 'error' ? 'red' : d.severity === 'warning' ? 'yellow' : 'cyan', d.severity);
    const hint = d.hint !== undefined ? ` (${d.hint})` : '';
    lines.push(`${sev}: ${terminalText(d.message + hint)}  ${paint(color, 'dim', d.code)}`);
  }
  for (const d of diagnostics) {
    if (d.file === undefined) continue;
    groups.set(d.file, [...(groups.get(d.file) ?? []), d]);
  }
  for (const [file, list] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
    // Messages, pointers and file names carry spec text: no control sequence may reach the terminal.
    lines.push(paint(color, 'bold', terminalText(file)));
    list.sort((a, b) => ORDER[a.severity] - ORDER[b.severity] || (a.line ?? 0) - (b.line ?? 0));
    for (const d of list) {
      const where = terminalText(
        d.line !== undefined ? `${d.line}:${d.col ?? 1}` : d.pointer !== undefined ? `#${d.pointer || '/'}` : '',
      );
      const sev = paint(
        color,
        d.severity === 'error' ? 'red' : d.severity === 'warning' ? 'yellow' : 'cyan',
        d.severity,
      );
      lines.push(`  ${paint(color, 'dim', where)}  ${sev}  ${terminalText(d.message)}  ${paint(color, 'dim', d.code)}`);
      if (d.line !== undefined && d.pointer)
        lines.push(`      ${paint(color, 'dim', `at ${terminalText(d.pointer)}`)}`);
      if (d.hint) lines.push(`      ${paint(color, 'dim', `hint: ${terminalText(d.hint)}`)}`);
    }
  }
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  if (groups.size > 0) lines.push('', `${errors} error(s), ${warnings} warning(s)`);
  return lines.join('\n');
}

/**
 * Prints an error a command ended with and returns its exit code: 2 for the user's input or config (its
 * diagnostics), 3 for anything else (a bug in idemgen, with its stack). `main` ends every run here, and
 * `generate --watch` each rerun, which goes on watching.
 */
export function reportError(err: unknown, logger: Logger): number {
  if (err instanceof InputError || err instanceof ConfigError) {
    const [only] = err.diagnostics;
    // One problem that belongs to no file and no place in one (no spec found, no OpenAPI input): one line.
    if (err.diagnostics.length === 1 && only.file === undefined && only.line === undefined && !only.pointer) {
      logger.error(terminalText(`${only.message} (${only.code})`));
      return 2;
    }
    logger.error(renderDiagnostics(err.diagnostics, logger.color));
    return 2;
  }
  const e = err as Error;
  logger.error(
    `idemgen: internal error — this is a bug in idemgen, not in your input.\n${e?.stack ?? String(err)}\nPlease report it to the idemgen maintainers with the command you ran, idemgen ${VERSION} and this stack trace.`,
  );
  return 3;
}
