/**
 * The CLI entry: parses arguments with yargs, runs one command, and is the single place that turns
 * errors into exit codes — 0 ok, 1 findings or stale output, 2 usage/config/input error, 3 internal error.
 */
import yargs, { type Argv } from 'yargs';
import { ConfigError, InputError } from '../diagnostics/diagnostic.js';
import type { AuditArgs } from './commands/audit.js';
import type { GenerateArgs } from './commands/generate.js';
import { renderDiagnostics } from './diagnostics.js';
import { createLogger, type Logger } from './logger.js';
import type { CliContext } from './context.js';

import { VERSION } from './version.js';

class UsageError extends Error {}

function withRunOptions<T>(y: Argv<T>) {
  return y
    .positional('inputs', { type: 'string', array: true, describe: 'Spec or tool-definition files or folders (default: config inputs, else specs/)' })
    .option('config', { type: 'string', describe: 'Config file (default: idemgen.config.{json,yaml,yml,js,mjs,ts} in cwd)' });
}

// Commands are imported when they run, so `--help` and a cached `generate` start fast.
function buildParser(argv: string[], run: (fn: (ctx: CliContext) => Promise<number> | number, args: { quiet?: boolean; verbose?: boolean }) => void) {
  const storeOption = { type: 'string', demandOption: true, describe: 'sqlite:path, postgres://… or redis://… store URL' } as const;
  return yargs(argv)
    .scriptName('idemgen')
    .usage('$0 <command> [options]\n\nMake the tools LLM agents call safe to retry.')
    .option('quiet', { alias: 'q', type: 'boolean', describe: 'Only print results and errors' })
    .option('verbose', { type: 'boolean', describe: 'Print informational diagnostics too' })
    .command('generate [inputs..]', 'Generate clients, SQL, tool schemas and the report', (y) =>
      withRunOptions(y)
        .option('out', { type: 'string', describe: 'Output folder (default: generated/)' })
        .option('cache', { type: 'boolean', default: true, describe: 'Skip work when nothing changed (--no-cache to force)' })
        .option('watch', { alias: 'w', type: 'boolean', describe: 'Regenerate when inputs change' }),
      (a) => run(async (ctx) => (await import('./commands/generate.js')).generateCommand(ctx, a as GenerateArgs), a))
    .command('audit [inputs..]', 'Classify every operation and report findings', (y) =>
      withRunOptions(y)
        .option('format', { alias: 'f', choices: ['text', 'markdown', 'json', 'sarif'] as const, describe: 'Report format (default: text)' })
        .option('output', { alias: 'o', type: 'string', array: true, describe: 'Write the report to a file (repeatable; format from extension)' })
        .option('fail-on', { choices: ['error', 'warning', 'none'] as const, default: 'error' as const, describe: 'Exit 1 when findings of this severity or worse exist' })
        .option('traces', { type: 'string', describe: 'Audit a recorded run instead (OTLP JSON or JSONL of tool calls): repeated tool calls, absorbed or not' })
        .option('window', { type: 'number', describe: 'With --traces: cross-turn repeat window in seconds (default 60)' }),
      (a) => run(async (ctx) => (a.traces !== undefined
        ? (await import('./commands/audit-traces.js')).auditTracesCommand(ctx, a)
        : (await import('./commands/audit.js')).auditCommand(ctx, a as AuditArgs)), a))
    .command('check [inputs..]', 'Exit 1 when the output folder is stale', (y) =>
      withRunOptions(y).option('out', { type: 'string', describe: 'Output folder (default: generated/)' }),
      (a) => run(async (ctx) => (await import('./commands/check.js')).checkCommand(ctx, a), a))
    .command('reconcile', 'List unknown outcomes (pending past their lease) and resolve them', (y) =>
      y.option('store', storeOption).option('json', { type: 'boolean' })
        .option('saga-table', { type: 'string', describe: 'Also list stale OP-5 saga rows of this table (external id, compensation)' })
        .option('resolve', { type: 'string', describe: 'Key of the row to resolve' })
        .option('as', { choices: ['failed', 'completed', 'not-executed'] as const, describe: 'completed: retries replay --result; failed / not-executed: the next retry runs' })
        .option('result', { type: 'string', describe: 'With --as completed: the result as JSON, or @file' })
        .option('reason', { type: 'string', describe: 'Why (stored in the row with who and when)' })
        .option('by', { type: 'string', describe: 'Who resolves (default: $USER)' })
        .option('scope', { type: 'string', describe: 'Tenant scope of the key (default: none)' }),
      (a) => run(async (ctx) => (await import('./commands/store.js')).reconcileCommand(ctx, a), a))
    .command('prune', 'Delete expired dedup rows', (y) =>
      y.option('store', storeOption).option('json', { type: 'boolean' }),
      (a) => run(async (ctx) => (await import('./commands/store.js')).pruneCommand(ctx, a), a))
    .command('init', 'Write a commented idemgen.config.yaml and a prebuild script', (y) =>
      y.option('force', { type: 'boolean', describe: 'Overwrite an existing idemgen.config.yaml' }),
      (a) => run(async (ctx) => (await import('./commands/init.js')).initCommand(ctx, a), a))
    .demandCommand(1, 'Name a command: generate, audit, check, reconcile, prune or init.')
    .strict()
    .version(VERSION)
    .help()
    .wrap(100)
    .exitProcess(false)
    .fail((msg, err) => {
      throw err ?? new UsageError(msg);
    });
}

export interface MainOptions {
  cwd?: string;
  logger?: Logger;
}

export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  const cwd = options.cwd ?? process.cwd();
  let pending: Promise<number> | undefined;
  let logger = options.logger ?? createLogger();
  try {
    let printed = '';
    await buildParser(argv, (fn, args) => {
      logger = options.logger ?? createLogger({ quiet: args.quiet, verbose: args.verbose });
      pending = Promise.resolve().then(() => fn({ cwd, logger }));
      // Awaited below; this only keeps Node from flagging the rejection before we get there.
      pending.catch(() => undefined);
    }).parseAsync(argv, {}, (_err, _args, output) => {
      // --help and --version: yargs hands us the text instead of printing it, so it goes through the logger.
      printed = output;
    });
    if (printed) logger.out(printed);
    return pending ? await pending : 0;
  } catch (err) {
    return handleError(err, logger);
  }
}

function handleError(err: unknown, logger: Logger): number {
  if (err instanceof InputError || err instanceof ConfigError) {
    logger.error(renderDiagnostics(err.diagnostics, logger.color));
    return 2;
  }
  if (err instanceof UsageError) {
    logger.error(`${err.message}\nRun \`idemgen --help\` for usage.`);
    return 2;
  }
  const e = err as Error;
  logger.error(`idemgen: internal error — this is a bug in idemgen, not in your input.\n${e?.stack ?? String(err)}\nPlease report it to the idemgen maintainers with the command you ran, idemgen ${VERSION} and this stack trace.`);
  return 3;
}
