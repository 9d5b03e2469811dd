/** The only place that prints. stdout carries results (reports, JSON); stderr carries diagnostics and progress. */
export interface Logger {
  /** A result line for stdout (always printed, even with --quiet). */
  out(text: string): void;
  info(text: string): void;
  verbose(text: string): void;
  error(text: string): void;
  progress(text: string): void;
  readonly color: boolean;
}

export interface LoggerOptions {
  quiet?: boolean;
  verbose?: boolean;
  stdout?: NodeJS.WritableStream & { isTTY?: boolean };
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
  env?: NodeJS.ProcessEnv;
}

/** NO_COLOR (https://no-color.org) wins over FORCE_COLOR; otherwise colour only on a TTY outside CI. */
export function wantsColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY) && !env.CI;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const env = options.env ?? process.env;
  const showProgress = Boolean(stderr.isTTY) && !env.CI && !options.quiet;
  let progressShown = false;
  const clearProgress = (): void => {
    if (progressShown) stderr.write('\r\x1b[2K');
    progressShown = false;
  };
  return {
    color: wantsColor(stdout, env),
    out: (text) => {
      clearProgress();
      stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    },
    info: (text) => {
      if (options.quiet) return;
      clearProgress();
      stderr.write(`${text}\n`);
    },
    verbose: (text) => {
      if (!options.verbose) return;
      clearProgress();
      stderr.write(`${text}\n`);
    },
    error: (text) => {
      clearProgress();
      stderr.write(`${text}\n`);
    },
    progress: (text) => {
      if (!showProgress) return;
      stderr.write(`\r\x1b[2K${text}`);
      progressShown = true;
    },
  };
}

const CODES = { red: 31, yellow: 33, green: 32, cyan: 36, dim: 2, bold: 1 } as const;
export function paint(enabled: boolean, style: keyof typeof CODES, text: string): string {
  return enabled ? `\x1b[${CODES[style]}m${text}\x1b[0m` : text;
}
