/**
 * The CLI entry: parses arguments with yargs, runs one command, and is the single place that turns
 * errors into exit codes — 0 ok, 1 findings or stale output, 2 usage/config/input error, 3 internal error.
 */
import { createRequire } from 'node:module';
import type { Argv } from 'yargs';
import type yargsFactory from 'yargs';
import { ConfigError, InputError } from '../diagnostics/diagnostic.js';
import type { AuditArgs } from './commands/audit.js';
import type { GenerateArgs } from './commands/generate.js';
import type { ValidateArgs } from './commands/validate.js';
import type { MigrateArgs } from './commands/migrate.js';
import type { ServeArgs } from './commands/serve.js';
import { renderDiagnostics } from './diagnostics.js';
import { terminalText } from '../escape/index.js';
import { createLogger, type Logger } from './logger.js';
import { closest, optionsInHelp, unknownNames } from './suggest.js';
import type { CliContext } from './context.js';

import { VERSION } from './version.js';

/**
 * yargs' CommonJS build: one bundled file, where its ES module entry is some 30 modules that every command
 * (and `--help`) would load first (~20 ms of each start). The factory is the same; `yargs/yargs` is it without
 * the singleton that the package's main entry builds from process.argv on load.
 */
const yargs = createRequire(import.meta.url)('yargs/yargs') as typeof yargsFactory;

class UsageError extends Error {}

/** The commands, in the order the help lists them: what a misspelled command is matched against. */
const COMMANDS = ['generate', 'audit', 'validate', 'check', 'serve', 'reconcile', 'prune', 'migrate', 'init'];

function withRunOptions<T>(y: Argv<T>) {
  return y
    .positional('inputs', {
      type: 'string',
      array: true,
      describe:
        'Spec or tool-definition files or folders; for audit also .ts/.js files, globs or a tsconfig.json (default: config inputs, else specs/)',
    })
    .option('config', {
      type: 'string',
      describe: 'Config file (default: idemgen.config.{json,yaml,yml,js,mjs,ts} in cwd)',
    });
}

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

/** `generate`: where to write, the cache, watch mode, strict references. */
function generateOptions<T>(y: Argv<T>) {
  return withRunOptions(y)
    .option('out', { type: 'string', describe: 'Output folder (default: generated/)' })
    .option('cache', {
      type: 'boolean',
      default: true,
      describe: 'Skip work when nothing changed (--no-cache to force)',
    })
    .option('watch', { alias: 'w', type: 'boolean', describe: 'Regenerate when inputs change' })
    .option('strict', {
      type: 'boolean',
      describe: 'Refuse (exit 2) when a $ref is broken, instead of generating unknown for it',
    });
}

/** `audit`: report formats and files, what fails the run, a baseline, live MCP servers. */
function auditOptions<T>(y: Argv<T>) {
  return withRunOptions(y)
    .option('format', {
      alias: 'f',
      choices: ['text', 'markdown', 'json', 'sarif', 'html'] as const,
      describe: 'Report format (default: text); html is one self-contained page',
    })
    .option('output', {
      alias: 'o',
      type: 'string',
      array: true,
      describe: 'Write the report to a file (repeatable; format from extension)',
    })
    .option('fail-on', {
      choices: ['error', 'warning', 'info', 'none'] as const,
      default: 'error' as const,
      describe: 'Exit 1 when findings of this severity or worse exist',
    })
    .option('baseline', {
      type: 'string',
      describe: 'A previous audit JSON or spec: also report what changed for retry safety',
    })
    .option('fail-on-change', {
      type: 'string',
      describe:
        'With --baseline: exit 1 on these changes (comma-separated: fail-closed, lost-key, lost-inverse, new-write, mechanism, gained-key, removed, any)',
    })
    .option('mcp', {
      type: 'string',
      array: true,
      describe: 'Audit a live MCP server started with this command over stdio (repeatable)',
    })
    .option('mcp-url', {
      type: 'string',
      array: true,
      describe: 'Audit a live MCP server over Streamable HTTP (repeatable)',
    })
    .option('header', {
      type: 'string',
      array: true,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: help text naming the literal ${ENV} placeholder
      describe: 'HTTP header for --mcp-url, "Name: value"; ${ENV} is expanded (repeatable)',
    })
    .option('mcp-timeout', {
      type: 'number',
      describe: 'Milliseconds a live server gets to answer everything (default 30000)',
    })
    .option('save', {
      type: 'string',
      describe: "Write the live server's tools/list to this file (for generate/check)",
    })
    .option('traces', {
      type: 'string',
      describe: 'Audit a recorded run instead (OTLP JSON or JSONL of tool calls): repeated tool calls, absorbed or not',
    })
    .option('window', {
      type: 'number',
      describe: 'With --traces: cross-turn repeat window in seconds (default 60)',
    });
}

/** `serve`: the store, transport and guard, the tool selection and modes, upstream API credentials. */
function serveOptions<T>(y: Argv<T>) {
  return serveToolOptions(serveListenOptions(withRunOptions(y)));
}

/** `serve`: the store, and where it listens and whom it lets in (tokens or OAuth). */
function serveListenOptions<T>(y: Argv<T>) {
  return y
    .option('store', {
      type: 'string',
      describe:
        'Dedup store: sqlite:PATH, postgres://…, mysql://… or redis://… (default: sqlite:.idemgen/serve.sqlite); its dedup and saga tables are created at start',
    })
    .option('migrate', {
      type: 'boolean',
      default: true,
      describe: 'Create the store tables at start; --no-migrate only checks that they exist',
    })
    .option('cache', {
      type: 'boolean',
      default: true,
      describe:
        'Reuse the tools derived from unchanged specs and config at the last start (--no-cache to analyse again)',
    })
    .option('http', {
      type: 'number',
      describe: 'Serve MCP Streamable HTTP on this port (/mcp) instead of stdio',
    })
    .option('host', {
      type: 'string',
      describe: 'Bind address for --http (default 127.0.0.1; --host alone: 0.0.0.0, needs --token)',
    })
    .option('token', {
      type: 'string',
      array: true,
      describe: 'Bearer token SUBJECT=SECRET (repeatable; or IDEMGEN_SERVE_TOKEN); the subject is the dedup scope',
    })
    .option('allowed-origin', {
      type: 'string',
      array: true,
      describe: 'An Origin allowed besides loopback ones (repeatable)',
    })
    .option('auth-issuer', {
      type: 'string',
      describe: 'OAuth: the authorization server whose JWT access tokens are accepted (with --auth-audience)',
    })
    .option('auth-audience', {
      type: 'string',
      describe: "OAuth: this server's canonical URL (https://host/mcp); tokens must name it in aud",
    })
    .option('auth-write-scope', {
      type: 'string',
      describe: 'OAuth: the scope a token needs for write tools (default mcp:write)',
    })
    .option('auth-subject-claim', {
      type: 'string',
      describe: 'OAuth: the claim naming the user, the dedup scope (default sub)',
    })
    .option('auth-token-type', {
      type: 'string',
      array: true,
      describe:
        'OAuth: accept access tokens of this JOSE typ (repeatable; default at+jwt only, RFC 9068; none = no typ)',
    });
}

/** `serve`: which tools, listed how (dynamic, code mode), and what they send upstream. */
function serveToolOptions<T>(y: Argv<T>) {
  return y
    .option('upstream-header', {
      type: 'string',
      array: true,
      describe: "SCHEME=HEADER: take the API credential for SCHEME from each caller's HEADER (repeatable)",
    })
    .option('include', {
      type: 'string',
      array: true,
      describe: 'Only tools with this tag (tag:NAME or NAME) or operation key/name glob (repeatable)',
    })
    .option('exclude', {
      type: 'string',
      array: true,
      describe: 'Leave out tools with this tag or matching this glob (repeatable)',
    })
    .option('read-only', { type: 'boolean', describe: 'Only tools without side effects' })
    .option('writes-only', { type: 'boolean', describe: 'Only tools with side effects' })
    .option('dynamic', {
      type: 'boolean',
      describe: 'List search_tools, describe_tool and invoke_tool instead of every tool (large APIs)',
    })
    .option('code', {
      type: 'boolean',
      describe:
        'Code mode: list search and execute; execute runs a script calling api.<tool>(args) in a QuickJS sandbox, each write keyed by the run key and its position',
    })
    .option('base-url', {
      type: 'string',
      describe: "The API base URL (default: the spec's first absolute server)",
    })
    .option('key-source', {
      type: 'string',
      choices: ['model', 'intent'],
      describe:
        'intent: writes are keyed by the host\'s _meta["io.idemgen/intent"] and the key argument is not listed (default: model, or config tools.keySource)',
    })
    .option('arg', {
      type: 'string',
      array: true,
      describe: 'A tool argument the server fills in, NAME=VALUE (e.g. AccountSid=AC…); hidden from the model',
    })
    .option('confirm', {
      type: 'string',
      choices: ['off', 'irreversible', 'writes'],
      describe:
        'Ask the user (MCP elicitation) before these writes run: irreversible = fail-closed ones (default: off, or config serve.confirm; operations marked physical/financial always ask)',
    });
}

const storeOption = {
  type: 'string',
  demandOption: true,
  describe: 'sqlite:path, postgres://… or redis://… store URL',
} as const;

/** `reconcile`: the store, one row's resolution, or settling rows by reading the API (--verify). */
function reconcileOptions<T>(y: Argv<T>) {
  return y
    .option('store', storeOption)
    .option('json', { type: 'boolean' })
    .option('saga-table', {
      type: 'string',
      describe: 'Also list stale saga rows of this table (external id, compensation)',
    })
    .option('resolve', { type: 'string', describe: 'Key of the row to resolve' })
    .option('as', {
      choices: ['failed', 'completed', 'not-executed'] as const,
      describe: 'completed: retries replay --result; failed / not-executed: the next retry runs',
    })
    .option('result', { type: 'string', describe: 'With --as completed: the result as JSON, or @file' })
    .option('reason', { type: 'string', describe: 'Why (stored in the row with who and when)' })
    .option('by', { type: 'string', describe: 'Who resolves (default: $USER)' })
    .option('scope', { type: 'string', describe: 'Tenant scope of the key (default: none)' })
    .option('verify', {
      type: 'boolean',
      describe: 'Settle pending rows by reading the API (the verification plans of --spec / the config inputs)',
    })
    .option('spec', { type: 'string', array: true, describe: 'With --verify: the specs the rows came from' })
    .option('base-url', { type: 'string', describe: 'With --verify: the API base URL the lookups read' })
    .option('header', {
      type: 'string',
      array: true,
      describe: 'With --verify: a header the lookups send ("Authorization: Bearer …"; repeatable)',
    })
    .option('config', { type: 'string', describe: 'With --verify: the idemgen config file' });
}

// Commands are imported when they run, so `--help` and a cached `generate` start fast.
function buildParser(
  argv: string[],
  run: (fn: (ctx: CliContext) => Promise<number> | number, args: { quiet?: boolean; verbose?: boolean }) => void,
) {
  return yargs(argv)
    .scriptName('idemgen')
    .usage('$0 <command> [options]\n\nMake the tools LLM agents call safe to retry.')
    .option('quiet', { alias: 'q', type: 'boolean', describe: 'Only print results and errors' })
    .option('verbose', { type: 'boolean', describe: 'Print informational diagnostics too' })
    .command(
      'generate [inputs..]',
      'Generate clients, SQL, tool schemas and the report',
      (y) => generateOptions(y),
      (a) => run(async (ctx) => (await import('./commands/generate.js')).generateCommand(ctx, a as GenerateArgs), a),
    )
    .command(
      'audit [inputs..]',
      'Classify every operation and report findings',
      (y) => auditOptions(y),
      (a) =>
        run(
          async (ctx) =>
            a.traces !== undefined
              ? (await import('./commands/audit-traces.js')).auditTracesCommand(ctx, a)
              : (await import('./commands/audit.js')).auditCommand(ctx, a as AuditArgs),
          a,
        ),
    )
    .command(
      'validate [inputs..]',
      'Check OpenAPI documents against the official 2.0/3.0/3.1 schema',
      (y) =>
        withRunOptions(y).option('format', {
          alias: 'f',
          choices: ['text', 'json'] as const,
          describe: 'Output format (default: text)',
        }),
      (a) => run(async (ctx) => (await import('./commands/validate.js')).validateCommand(ctx, a as ValidateArgs), a),
    )
    .command(
      'check [inputs..]',
      'Exit 1 when the output folder is stale',
      (y) =>
        withRunOptions(y)
          .option('out', { type: 'string', describe: 'Output folder (default: generated/)' })
          .option('baseline', {
            type: 'string',
            describe: 'A previous audit JSON or spec: also fail on retry-safety changes since then',
          })
          .option('fail-on-change', {
            type: 'string',
            describe: 'With --baseline: the changes that fail (default fail-closed,lost-key,lost-inverse; any; none)',
          }),
      (a) => run(async (ctx) => (await import('./commands/check.js')).checkCommand(ctx, a), a),
    )
    .command(
      'reconcile',
      'List unknown outcomes (pending past their lease) and resolve them',
      (y) => reconcileOptions(y),
      (a) => run(async (ctx) => (await import('./commands/store.js')).reconcileCommand(ctx, a), a),
    )
    .command(
      'prune',
      'Delete expired dedup rows',
      (y) => y.option('store', storeOption).option('json', { type: 'boolean' }),
      (a) => run(async (ctx) => (await import('./commands/store.js')).pruneCommand(ctx, a), a),
    )
    .command(
      'migrate',
      'Create the dedup and saga tables in a store (the generated DDL, IF NOT EXISTS)',
      (y) =>
        y
          .option('store', storeOption)
          .option('config', { type: 'string', describe: 'Config file (its sql names are used)' })
          .option('dry-run', { type: 'boolean', describe: 'Print the SQL instead of running it' }),
      (a) =>
        run(async (ctx) => (await import('./commands/migrate.js')).migrateCommand(ctx, a as unknown as MigrateArgs), a),
    )
    .command(
      'serve [inputs..]',
      'Serve the specs as a retry-safe MCP server (stdio, or Streamable HTTP with --http)',
      (y) => serveOptions(y),
      (a) => run(async (ctx) => (await loadServe()).serveCommand(ctx, a as ServeArgs), a),
    )
    .command(
      'init',
      'Write a commented idemgen.config.yaml and a prebuild script',
      (y) => y.option('force', { type: 'boolean', describe: 'Overwrite an existing idemgen.config.yaml' }),
      (a) => run(async (ctx) => (await import('./commands/init.js')).initCommand(ctx, a), a),
    )
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
  if (err instanceof UsageError) {
    logger.error(err.message.includes('--help') ? err.message : `${err.message}\nRun \`idemgen --help\` for usage.`);
    return 2;
  }
  const e = err as Error;
  logger.error(
    `idemgen: internal error — this is a bug in idemgen, not in your input.\n${e?.stack ?? String(err)}\nPlease report it to the idemgen maintainers with the command you ran, idemgen ${VERSION} and this stack trace.`,
  );
  return 3;
}
