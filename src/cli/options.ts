/**
 * The CLI's commands and options as data: yargs builds `--help`, its checks and its messages from these tables
 * (main.ts), and `plainArgs` (plain-args.ts) reads the same tables to parse a plain command line without loading
 * yargs at all. One table per command, so the two parsers cannot disagree on a name, a type or a default.
 */

/** One option as yargs' `.option(name, …)` takes it (the subset idemgen uses). */
export interface OptionSpec {
  readonly type?: 'string' | 'boolean' | 'number';
  readonly alias?: string;
  readonly array?: boolean;
  readonly choices?: readonly string[];
  readonly default?: string | boolean;
  readonly demandOption?: boolean;
  readonly describe?: string;
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;

export interface CommandSpec {
  readonly name: string;
  readonly describe: string;
  /** Whether the command takes `[inputs..]` (spec files or folders) as positional arguments. */
  readonly inputs: boolean;
  readonly options: OptionTable;
}

/** Every command's: how much it prints. */
export const GLOBAL_OPTIONS: OptionTable = {
  quiet: { alias: 'q', type: 'boolean', describe: 'Only print results and errors' },
  verbose: { type: 'boolean', describe: 'Print informational diagnostics too' },
};

/** The `[inputs..]` positional of the commands that read specs. */
export const INPUTS_OPTION: OptionSpec = {
  type: 'string',
  array: true,
  describe:
    'Spec or tool-definition files or folders; for audit also .ts/.js files, globs or a tsconfig.json (default: config inputs, else specs/)',
};

/** Beside `[inputs..]`: where the config is. */
const RUN_OPTIONS: OptionTable = {
  config: {
    type: 'string',
    describe: 'Config file (default: idemgen.config.{json,yaml,yml,js,mjs,ts} in cwd)',
  },
};

/** The output folder `generate` writes and `check` compares. */
const OUT_OPTION: OptionSpec = { type: 'string', describe: 'Output folder (default: generated/)' };

/** `generate`: where to write, the cache, watch mode, strict references. */
const GENERATE_OPTIONS: OptionTable = {
  ...RUN_OPTIONS,
  out: OUT_OPTION,
  cache: {
    type: 'boolean',
    default: true,
    describe: 'Skip work when nothing changed (--no-cache to force)',
  },
  watch: { alias: 'w', type: 'boolean', describe: 'Regenerate when inputs change' },
  strict: {
    type: 'boolean',
    describe: 'Refuse (exit 2) when a $ref is broken, instead of generating unknown for it',
  },
};

/** `audit`: report formats and files, what fails the run, a baseline, live MCP servers. */
const AUDIT_OPTIONS: OptionTable = {
  ...RUN_OPTIONS,
  format: {
    alias: 'f',
    choices: ['text', 'markdown', 'json', 'sarif', 'html'],
    describe: 'Report format (default: text); html is one self-contained page',
  },
  output: {
    alias: 'o',
    type: 'string',
    array: true,
    describe: 'Write the report to a file (repeatable; format from extension)',
  },
  'fail-on': {
    choices: ['error', 'warning', 'info', 'none'],
    default: 'error',
    describe: 'Exit 1 when findings of this severity or worse exist',
  },
  baseline: {
    type: 'string',
    describe: 'A previous audit JSON or spec: also report what changed for retry safety',
  },
  'fail-on-change': {
    type: 'string',
    describe:
      'With --baseline: exit 1 on these changes (comma-separated: fail-closed, lost-key, lost-inverse, new-write, mechanism, gained-key, removed, any)',
  },
  mcp: {
    type: 'string',
    array: true,
    describe: 'Audit a live MCP server started with this command over stdio (repeatable)',
  },
  'mcp-url': {
    type: 'string',
    array: true,
    describe: 'Audit a live MCP server over Streamable HTTP (repeatable)',
  },
  header: {
    type: 'string',
    array: true,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: help text naming the literal ${ENV} placeholder
    describe: 'HTTP header for --mcp-url, "Name: value"; ${ENV} is expanded (repeatable)',
  },
  'mcp-timeout': {
    type: 'number',
    describe: 'Milliseconds a live server gets to answer everything (default 30000)',
  },
  save: {
    type: 'string',
    describe: "Write the live server's tools/list to this file (for generate/check)",
  },
  traces: {
    type: 'string',
    describe: 'Audit a recorded run instead (OTLP JSON or JSONL of tool calls): repeated tool calls, absorbed or not',
  },
  window: {
    type: 'number',
    describe: 'With --traces: cross-turn repeat window in seconds (default 60)',
  },
};

/** `validate`: the output format. */
const VALIDATE_OPTIONS: OptionTable = {
  ...RUN_OPTIONS,
  format: {
    alias: 'f',
    choices: ['text', 'json'],
    describe: 'Output format (default: text)',
  },
};

/** `check`: the folder to compare, and retry-safety changes since a baseline. */
const CHECK_OPTIONS: OptionTable = {
  ...RUN_OPTIONS,
  out: OUT_OPTION,
  baseline: {
    type: 'string',
    describe: 'A previous audit JSON or spec: also fail on retry-safety changes since then',
  },
  'fail-on-change': {
    type: 'string',
    describe: 'With --baseline: the changes that fail (default fail-closed,lost-key,lost-inverse; any; none)',
  },
};

/** `serve`: the store, and where it listens and whom it lets in (tokens or OAuth). */
const SERVE_LISTEN_OPTIONS: OptionTable = {
  store: {
    type: 'string',
    describe:
      'Dedup store: sqlite:PATH, postgres://…, mysql://… or redis://… (default: sqlite:.idemgen/serve.sqlite); its dedup and saga tables are created at start',
  },
  migrate: {
    type: 'boolean',
    default: true,
    describe: 'Create the store tables at start; --no-migrate only checks that they exist',
  },
  cache: {
    type: 'boolean',
    default: true,
    describe: 'Reuse the tools derived from unchanged specs and config at the last start (--no-cache to analyse again)',
  },
  http: {
    type: 'number',
    describe: 'Serve MCP Streamable HTTP on this port (/mcp) instead of stdio',
  },
  host: {
    type: 'string',
    describe: 'Bind address for --http (default 127.0.0.1; --host alone: 0.0.0.0, needs --token)',
  },
  token: {
    type: 'string',
    array: true,
    describe: 'Bearer token SUBJECT=SECRET (repeatable; or IDEMGEN_SERVE_TOKEN); the subject is the dedup scope',
  },
  'allowed-origin': {
    type: 'string',
    array: true,
    describe: 'An Origin allowed besides loopback ones (repeatable)',
  },
  'auth-issuer': {
    type: 'string',
    describe: 'OAuth: the authorization server whose JWT access tokens are accepted (with --auth-audience)',
  },
  'auth-audience': {
    type: 'string',
    describe: "OAuth: this server's canonical URL (https://host/mcp); tokens must name it in aud",
  },
  'auth-write-scope': {
    type: 'string',
    describe: 'OAuth: the scope a token needs for write tools (default mcp:write)',
  },
  'auth-subject-claim': {
    type: 'string',
    describe: 'OAuth: the claim naming the user, the dedup scope (default sub)',
  },
  'auth-token-type': {
    type: 'string',
    array: true,
    describe: 'OAuth: accept access tokens of this JOSE typ (repeatable; default at+jwt only, RFC 9068; none = no typ)',
  },
};

/** `serve`: which tools, listed how (dynamic, code mode), and what they send upstream. */
const SERVE_TOOL_OPTIONS: OptionTable = {
  'upstream-header': {
    type: 'string',
    array: true,
    describe: "SCHEME=HEADER: take the API credential for SCHEME from each caller's HEADER (repeatable)",
  },
  include: {
    type: 'string',
    array: true,
    describe: 'Only tools with this tag (tag:NAME or NAME) or operation key/name glob (repeatable)',
  },
  exclude: {
    type: 'string',
    array: true,
    describe: 'Leave out tools with this tag or matching this glob (repeatable)',
  },
  'read-only': { type: 'boolean', describe: 'Only tools without side effects' },
  'writes-only': { type: 'boolean', describe: 'Only tools with side effects' },
  dynamic: {
    type: 'boolean',
    describe: 'List search_tools, describe_tool and invoke_tool instead of every tool (large APIs)',
  },
  code: {
    type: 'boolean',
    describe:
      'Code mode: list search and execute; execute runs a script calling api.<tool>(args) in a QuickJS sandbox, each write keyed by the run key and its position',
  },
  'base-url': {
    type: 'string',
    describe: "The API base URL (default: the spec's first absolute server)",
  },
  'key-source': {
    type: 'string',
    choices: ['model', 'intent'],
    describe:
      'intent: writes are keyed by the host\'s _meta["io.idemgen/intent"] and the key argument is not listed (default: model, or config tools.keySource)',
  },
  arg: {
    type: 'string',
    array: true,
    describe: 'A tool argument the server fills in, NAME=VALUE (e.g. AccountSid=AC…); hidden from the model',
  },
  confirm: {
    type: 'string',
    choices: ['off', 'irreversible', 'writes'],
    describe:
      'Ask the user (MCP elicitation) before these writes run: irreversible = fail-closed ones (default: off, or config serve.confirm; operations marked physical/financial always ask)',
  },
};

const STORE_OPTION: OptionSpec = {
  type: 'string',
  demandOption: true,
  describe: 'sqlite:path, postgres://… or redis://… store URL',
};

/** `reconcile`: the store, one row's resolution, or settling rows by reading the API (--verify). */
const RECONCILE_OPTIONS: OptionTable = {
  store: STORE_OPTION,
  json: { type: 'boolean' },
  'saga-table': {
    type: 'string',
    describe: 'Also list stale saga rows of this table (external id, compensation)',
  },
  resolve: { type: 'string', describe: 'Key of the row to resolve' },
  as: {
    choices: ['failed', 'completed', 'not-executed'],
    describe: 'completed: retries replay --result; failed / not-executed: the next retry runs',
  },
  result: { type: 'string', describe: 'With --as completed: the result as JSON, or @file' },
  reason: { type: 'string', describe: 'Why (stored in the row with who and when)' },
  by: { type: 'string', describe: 'Who resolves (default: $USER)' },
  scope: { type: 'string', describe: 'Tenant scope of the key (default: none)' },
  verify: {
    type: 'boolean',
    describe: 'Settle pending rows by reading the API (the verification plans of --spec / the config inputs)',
  },
  spec: { type: 'string', array: true, describe: 'With --verify: the specs the rows came from' },
  'base-url': { type: 'string', describe: 'With --verify: the API base URL the lookups read' },
  header: {
    type: 'string',
    array: true,
    describe: 'With --verify: a header the lookups send ("Authorization: Bearer …"; repeatable)',
  },
  config: { type: 'string', describe: 'With --verify: the idemgen config file' },
};

/** The commands, in the order `--help` lists them. */
export const COMMAND_SPECS: readonly CommandSpec[] = [
  {
    name: 'generate',
    describe: 'Generate clients, SQL, tool schemas and the report',
    inputs: true,
    options: GENERATE_OPTIONS,
  },
  { name: 'audit', describe: 'Classify every operation and report findings', inputs: true, options: AUDIT_OPTIONS },
  {
    name: 'validate',
    describe: 'Check OpenAPI documents against the official 2.0/3.0/3.1 schema',
    inputs: true,
    options: VALIDATE_OPTIONS,
  },
  { name: 'check', describe: 'Exit 1 when the output folder is stale', inputs: true, options: CHECK_OPTIONS },
  {
    name: 'reconcile',
    describe: 'List unknown outcomes (pending past their lease) and resolve them',
    inputs: false,
    options: RECONCILE_OPTIONS,
  },
  {
    name: 'prune',
    describe: 'Delete expired dedup rows',
    inputs: false,
    options: { store: STORE_OPTION, json: { type: 'boolean' } },
  },
  {
    name: 'migrate',
    describe: 'Create the dedup and saga tables in a store (the generated DDL, IF NOT EXISTS)',
    inputs: false,
    options: {
      store: STORE_OPTION,
      config: { type: 'string', describe: 'Config file (its sql names are used)' },
      'dry-run': { type: 'boolean', describe: 'Print the SQL instead of running it' },
    },
  },
  {
    name: 'serve',
    describe: 'Serve the specs as a retry-safe MCP server (stdio, or Streamable HTTP with --http)',
    inputs: true,
    options: { ...RUN_OPTIONS, ...SERVE_LISTEN_OPTIONS, ...SERVE_TOOL_OPTIONS },
  },
  {
    name: 'init',
    describe: 'Write a commented idemgen.config.yaml and a prebuild script',
    inputs: false,
    options: {
      force: {
        type: 'boolean',
        describe: 'Replace an existing config (kept as <name>.bak) with a fresh idemgen.config.yaml',
      },
    },
  },
];
