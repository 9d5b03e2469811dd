/** Diagnostics are data until the CLI renders them (STYLE habit 2). */
export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  /** Stable snake_case code, e.g. `invalid_json`, `duplicate_operation_id`. */
  code: string;
  severity: Severity;
  message: string;
  file?: string;
  /** RFC 6901 JSON pointer inside `file`. */
  pointer?: string;
  line?: number;
  col?: number;
  hint?: string;
}

/** A user's mistake in an input file: printed without a stack, exit 2. */
export class InputError extends Error {
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic[]) {
    super(diagnostics.map((d) => d.message).join('\n'));
    this.name = 'InputError';
    this.diagnostics = diagnostics;
  }
}

/** A user's mistake in configuration or command-line usage: printed without a stack, exit 2. */
export class ConfigError extends Error {
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic[]) {
    super(diagnostics.map((d) => d.message).join('\n'));
    this.name = 'ConfigError';
    this.diagnostics = diagnostics;
  }
}

export function diagnostic(
  code: string,
  severity: Severity,
  message: string,
  where: Omit<Diagnostic, 'code' | 'severity' | 'message'> = {},
): Diagnostic {
  return { code, severity, message, ...where };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
