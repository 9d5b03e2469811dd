/**
 * The CLI entry: parses arguments (plain-args.ts, else yargs), runs one command, and is the single place that turns
 * errors into exit codes — 0 ok, 1 findings or stale output, 2 usage/config/input error, 3 internal error.
 */
import { createRequire } from 'node:module';
import type { Argv, Options, PositionalOptions } from 'yargs';
import type yargsFactory from 'yargs';
import type { AuditArgs } from './commands/audit.js';
import type { AuditTracesArgs } from './commands/audit-traces.js';
import type { CheckArgs } from './commands/check.js';
import type { GenerateArgs } from './commands/generate.js';
import type { ValidateArgs } from './commands/validate.js';
import type { MigrateArgs } from './commands/migrate.js';
import type { ServeArgs } from './commands/serve.js';
import type { ReconcileArgs, StoreArgs } from './commands/store.js';
import { reportError } from './diagnostics.js';
import { createLogger, type Logger } from './logger.js';
import { COMMAND_SPECS, GLOBAL_OPTIONS, INPUTS_OPTION } from './options.js';
import { plainArgs } from './plain-args.js';
import { closest } from '../diagnostics/suggest.js';
import { optionsInHelp, unknownNames } from './suggest.js';
import type { CliContext } from './context.js';

import { VERSION } from './version.js';

class UsageError extends Error {}

/**
 * The commands, in the order messages name them (`--help` lists them as options.ts does): what a misspelled
 * command is matched against.
 */
const COMMANDS = ['generate', 'audit', 'validate', 'check', 'serve', 'reconcile', 'prune', 'migrate', 'init'];

/** `serve` needs the MCP SDK, an optional peer dependency: its absence is an install step, not a crash. */
async function loadServe(): Promise<typeof import('./commands/serve.js')> {
  try {
    return await import('./commands/serve.js');
  } catch (err) {
    if (
      (err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' &&
      String((err as Error).message).includes('@modelcontextprotocol/sdk')
    ) {
      throw new UsageError('idemgen serve needs the MCP SDK: npm install @modelcontextprotocol/sdk');
    }
    throw err;
  }
}

type CommandArgs = Record<string, unknown>;
type Run = (ctx: CliContext) => Promise<number> | number;

/**
 * What each command runs, given its parsed arguments. Commands are imported when they run, so `--help` and a
 * cached `generate` start fast.
 */
const HANDLERS: Readonly<Record<string, (a: CommandArgs) => Run>> = {
  generate: (a) => async (ctx) =>
    (await import('./commands/generate.js')).generateCommand(ctx, a as unknown as GenerateArgs),
  audit: (a) => async (ctx) =>
    a.traces !== undefined
      ? (await import('./commands/audit-traces.js')).auditTracesCommand(ctx, a as unknown as AuditTracesArgs)
      : (await import('./commands/audit.js')).auditCommand(ctx, a as unknown as AuditArgs),
  validate: (a) => async (ctx) =>
    (await import('./commands/validate.js')).validateCommand(ctx, a as unknown as ValidateArgs),
  check: (a) => async (ctx) => (await import('./commands/check.js')).checkCommand(ctx, a as unknown as CheckArgs),
  reconcile: (a) => async (ctx) =>
    (await import('./commands/store.js')).reconcileCommand(ctx, a as unknown as ReconcileArgs),
  prune: (a) => async (ctx) => (await import('./commands/store.js')).pruneCommand(ctx, a as unknown as StoreArgs),
  migrate: (a) => async (ctx) =>
    (await import('./commands/migrate.js')).migrateCommand(ctx, a as unknown as MigrateArgs),
  serve: (a) => async (ctx) => (await loadServe()).serveCommand(ctx, a as unknown as ServeArgs),
  init: (a) => async (ctx) => (await import('./commands/init.js')).initCommand(ctx, a as { force?: boolean }),
};

/**
 * yargs, for every command line `plainArgs` leaves to it, `--help` and `--version`. Its CommonJS build: one
 * bundled file, where its ES module entry is some 30 modules (~20 ms more); `yargs/yargs` is the factory without
 * the singleton that the package's main entry builds from process.argv on load.
 */
function buildParser(argv: string[], run: (fn: Run, args: { quiet?: boolean; verbose?: boolean }) => void): Argv {
  const yargs = createRequire(import.meta.url)('yargs/yargs') as typeof yargsFactory;
  let parser: Argv = yargs(argv)
    .scriptName('idemgen')
    .usage('$0 <command> [options]\n\nMake the tools LLM agents call safe to retry.')
    .options(GLOBAL_OPTIONS as Record<string, Options>);
  for (const spec of COMMAND_SPECS) {
    parser = parser.command(
      spec.inputs ? `${spec.name} [inputs..]` : spec.name,
      spec.describe,
      (y) =>
        (spec.inputs ? y.positional('inputs', INPUTS_OPTION as PositionalOptions) : y).options(
          spec.options as Record<string, Options>,
        ),
      (a) => run(HANDLERS[spec.name]!(a), a as { quiet?: boolean; verbose?: boolean }),
    );
  }
  return parser
    .demandCommand(1, `Name a command: ${COMMANDS.slice(0, -1).join(', ')} or ${COMMANDS.at(-1)}.`)
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
    const start = (fn: Run, args: { quiet?: boolean; verbose?: boolean }): void => {
      logger = options.logger ?? createLogger({ quiet: args.quiet, verbose: args.verbose });
      pending = Promise.resolve().then(() => fn({ cwd, logger }));
      // Awaited below; this only keeps Node from flagging the rejection before we get there.
      pending.catch(() => undefined);
    };
    const plain = plainArgs(argv, COMMAND_SPECS, GLOBAL_OPTIONS);
    if (plain !== undefined) start(HANDLERS[plain.command.name]!(plain.args), plain.args);
    else {
      let printed = '';
      await buildParser(argv, start).parseAsync(argv, {}, (_err, _args, output) => {
        // --help and --version: yargs hands us the text instead of printing it, so it goes through the logger.
        printed = output;
      });
      if (printed) logger.out(printed);
    }
    return pending ? await pending : 0;
  } catch (err) {
    return handleError(err instanceof UsageError ? await withSuggestion(err, argv) : err, logger);
  }
}

/** The `--help` text of one command, as the parser prints it. */
async function helpOf(command: string): Promise<string> {
  let text = '';
  await buildParser([command, '--help'], () => undefined).parseAsync([command, '--help'], {}, (_e, _a, output) => {
    text = output;
  });
  return text;
}

/**
 * yargs' "Unknown argument: genrate" as a sentence that names what was meant: the closest command, or the
 * closest option of the command that was run (its own `--help` is the list), with where to read the rest.
 */
async function withSuggestion(err: UsageError, argv: string[]): Promise<UsageError> {
  const unknown = unknownNames(err.message) ?? [];
  const words = argv.filter((a) => !a.startsWith('-'));
  const command = words[0];
  if (command !== undefined && !COMMANDS.includes(command) && unknown.includes(command)) {
    const near = closest(command, COMMANDS);
    return new UsageError(
      near !== undefined
        ? `Unknown command "${command}": did you mean idemgen ${near}?`
        : `Unknown command "${command}". The commands are ${COMMANDS.join(', ')}.`,
    );
  }
  if (command === undefined || !COMMANDS.includes(command)) return err;
  const options = optionsInHelp(await helpOf(command));
  // Every long option given that the command does not know: yargs may have stopped at another complaint first
  // (`--stroe` leaves `--store` missing), but the misspelling is what to fix.
  const given = argv.filter((a) => a.startsWith('--') && a.length > 2).map((a) => a.slice(2).split('=')[0]!);
  const known = (n: string) => options.includes(n) || (n.startsWith('no-') && options.includes(n.slice(3)));
  const flags = [...new Set(given.filter((n) => !known(n)))];
  if (flags.length === 0) return err;
  const lines = flags.map((n) => {
    const near = closest(n, options);
    return near !== undefined
      ? `Unknown option --${n} for idemgen ${command}: did you mean --${near}?`
      : `Unknown option --${n} for idemgen ${command}.`;
  });
  return new UsageError(`${lines.join('\n')}\nRun \`idemgen ${command} --help\` for its options.`, { cause: err });
}

function handleError(err: unknown, logger: Logger): number {
  if (err instanceof UsageError) {
    logger.error(err.message.includes('--help') ? err.message : `${err.message}\nRun \`idemgen --help\` for usage.`);
    return 2;
  }
  return reportError(err, logger);
}

/** The arguments yargs hands the command `argv` names, or undefined when it runs none: what `plainArgs` must match. */
export async function yargsArgs(argv: string[]): Promise<Record<string, unknown> | undefined> {
  let seen: Record<string, unknown> | undefined;
  try {
    await buildParser(argv, (_fn, args) => {
      seen = args as Record<string, unknown>;
    }).parseAsync(argv, {}, () => undefined);
  } catch {
    return undefined;
  }
  return seen;
}
