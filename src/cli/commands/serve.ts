/**
 * `idemgen serve <spec…>`: any spec as a retry-safe MCP server, no generated code — stdio by default,
 * `--http PORT` for Streamable HTTP. The pieces live in src/serve/; this file turns flags into them and
 * keeps the process up until the client goes away (stdio) or a signal arrives.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CODE_KEY_INSTRUCTIONS, KEY_INSTRUCTIONS } from '@idemgen/runtime/internal/tools/key-argument.js';
import type {
  McpToolRuntime,
  RegisterToolRuntimeOptions,
  RuntimeSource,
} from '@idemgen/runtime/internal/mcp/register.js';
import type { ConfirmPolicy } from '@idemgen/runtime/internal/tools/human.js';
import type { ToolBinding } from '@idemgen/runtime/tools';
import type { ToolSelection } from '../../config/types.js';
import { parseTokens, isLoopbackHost, type TokenEntry } from '../../serve/http-guard.js';
import type { HttpCaller } from '../../serve/http.js';
import type { UpstreamOptions } from '../../serve/caller.js';
import type { OAuthSettings } from '../../serve/oauth.js';
import type { ResolvedConfig } from '../../config/types.js';
import { ConfigError, InputError } from '../../diagnostics/diagnostic.js';
import { terminalText } from '../../escape/index.js';
import type { ServeAnalysisJob } from '../../serve/analysis-job.js';
import { readServeCache, serveCacheFile, serveCacheKey } from '../../serve/cache.js';
import { needsStore, type ServeAnalysis, ServeSetupError, serveRuntimeOf } from '../../serve/tools.js';
import { DEFAULT_SERVE_STORE, openServeStore } from '../../serve/store.js';
import { resolveRun, type CliContext, type CommonArgs } from '../context.js';
import { VERSION } from '../version.js';

export interface ServeArgs extends CommonArgs {
  store?: string;
  http?: number;
  host?: string;
  token?: string[];
  allowedOrigin?: string[];
  include?: string[];
  exclude?: string[];
  readOnly?: boolean;
  writesOnly?: boolean;
  dynamic?: boolean;
  code?: boolean;
  baseUrl?: string;
  arg?: string[];
  migrate?: boolean;
  keySource?: 'model' | 'intent';
  authIssuer?: string;
  authAudience?: string;
  authWriteScope?: string;
  authSubjectClaim?: string;
  /** JOSE `typ` values accepted besides RFC 9068's `at+jwt` default (`none`: no `typ`). */
  authTokenType?: string[];
  upstreamHeader?: string[];
  /** Which writes wait for the user's yes (MCP elicitation); config `serve.confirm`. */
  confirm?: ConfirmPolicy;
  /**
   * false (`--no-cache`): analyse the specs (and render the store DDL of non-default table names) even when
   * the cache has them; store nothing.
   */
  cache?: boolean;
}

/**
 * Flags over `serve.auth` in the config; every problem is one line naming where it came from. The OAuth
 * module (and jose) loads only when something is set: a plain stdio start does not pay for it.
 */
async function oauthOf(config: ResolvedConfig, args: ServeArgs): Promise<OAuthSettings | undefined> {
  const fromConfig = config.serve.auth ?? {};
  const input = {
    issuer: args.authIssuer ?? fromConfig.issuer,
    audience: args.authAudience ?? fromConfig.audience,
    writeScope: args.authWriteScope ?? fromConfig.writeScope,
    subjectClaim: args.authSubjectClaim ?? fromConfig.subjectClaim,
    clockToleranceSeconds: fromConfig.clockToleranceSeconds,
    tokenTypes: args.authTokenType ?? fromConfig.tokenTypes,
  };
  if (Object.values(input).every((v) => v === undefined)) return undefined;
  const { oauthSettings } = await import('../../serve/oauth.js');
  const { settings, problems } = oauthSettings(input);
  if (problems.length > 0)
    throw new ServeSetupError(`OAuth settings (--auth-* flags or serve.auth in the config): ${problems.join('; ')}`);
  return settings;
}

async function upstreamOf(config: ResolvedConfig, args: ServeArgs): Promise<UpstreamOptions | undefined> {
  const pairs = [
    ...Object.entries(config.serve.upstreamHeaders ?? {}).map(([scheme, header]) => `${scheme}=${header}`),
    ...(args.upstreamHeader ?? []),
  ];
  if (pairs.length === 0) return undefined;
  const { parseUpstreamHeaders } = await import('../../serve/caller.js');
  try {
    return { headers: parseUpstreamHeaders(pairs) };
  } catch (err) {
    throw new ServeSetupError((err as Error).message);
  }
}

async function scopeSecretOf(store: string | undefined, cwd: string): Promise<Uint8Array> {
  const { serveScopeSecret } = await import('../../serve/scope-secret.js');
  try {
    return serveScopeSecret(store, DEFAULT_SERVE_STORE, cwd, process.env);
  } catch (err) {
    throw new ServeSetupError((err as Error).message);
  }
}

function selection(base: ToolSelection, args: ServeArgs): ToolSelection {
  return {
    include: [...(base.include ?? []), ...(args.include ?? [])],
    exclude: [...(base.exclude ?? []), ...(args.exclude ?? [])],
    readOnly: args.readOnly ?? base.readOnly,
    writesOnly: args.writesOnly ?? base.writesOnly,
  };
}

function serverArguments(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new ServeSetupError(`--arg ${JSON.stringify(pair)}: expected NAME=VALUE`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/**
 * The specs' tools: from the serve cache (serve/cache.ts) when it holds this input, config and selection,
 * else load → IR → classify → bindings (analysis-job.ts), stored for the next start. The analysis modules
 * (and the emitters the bindings come from) load only on that path. Returns a promise the caller awaits
 * after starting the MCP SDK's import, so the SDK's files are read while the specs are analysed. A start
 * with no tools to serve stores nothing.
 */
function analysisOf(
  ctx: CliContext,
  args: ServeArgs,
  config: ResolvedConfig,
  inputs: string[],
  select: ToolSelection,
  listing: RegisterToolRuntimeOptions | undefined,
): Promise<ServeAnalysis> {
  const useCache = args.cache !== false;
  // What the listing depends on besides the bindings: the hidden argument names and the key source.
  const listedAs = listing && {
    hidden: Object.keys(listing.serverArguments ?? {}).sort(),
    keySource: listing.keySource,
    compact: listing.compact,
  };
  const file = serveCacheFile(ctx.cwd, inputs, listing !== undefined);
  const key = useCache ? serveCacheKey(inputs, config, { select, listedAs }) : '';
  const cached = useCache ? readServeCache(file, key) : undefined;
  if (cached !== undefined && (listing === undefined || Array.isArray(cached.listing))) {
    ctx.logger.verbose('idemgen serve: tools from the serve cache (inputs, config and idemgen unchanged)');
    return Promise.resolve(cached);
  }
  const job: ServeAnalysisJob = {
    inputs,
    config,
    cwd: ctx.cwd,
    select,
    ...(listing !== undefined
      ? {
          listing: {
            serverArguments: listing.serverArguments,
            keySource: listing.keySource,
            compact: listing.compact,
          },
        }
      : {}),
    ...(useCache ? { cache: { file, key } } : {}),
  };
  return import('../../serve/analysis-job.js').then(async ({ runServeAnalysis }) => {
    const outcome = await runServeAnalysis(job);
    if (outcome.ok) return outcome.analysis;
    if (outcome.problem === 'setup') throw new ServeSetupError(outcome.message);
    throw outcome.problem === 'input' ? new InputError(outcome.diagnostics) : new ConfigError(outcome.diagnostics);
  });
}

/** The MCP SDK's server side (an optional peer dependency: its absence is an install step, not a crash). */
async function loadSdk() {
  try {
    const [mcp, stdio, register] = await Promise.all([
      import('@modelcontextprotocol/sdk/server/mcp.js'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('@idemgen/runtime/internal/mcp/register.js'),
    ]);
    return {
      McpServer: mcp.McpServer,
      StdioServerTransport: stdio.StdioServerTransport,
      registerListedToolRuntime: register.registerListedToolRuntime,
    };
  } catch (err) {
    if (
      (err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' &&
      String((err as Error).message).includes('@modelcontextprotocol/sdk')
    )
      throw new ServeSetupError('needs the MCP SDK: npm install @modelcontextprotocol/sdk');
    throw err;
  }
}

/** Above this, a full listing takes a large share of a model's context (≈ 4 bytes a token: 64k tokens). */
const LARGE_LISTING_BYTES = 256_000;

/**
 * A whole number with a comma every three digits (`1,141`), as `toLocaleString('en-US')` writes it without
 * its cost: the first Intl call of a process loads locale data (≈ 20–30 ms of a serve start).
 */
function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** One line when `tools/list` is large: its size and the modes that list two or three tools instead. */
function hintListSize(ctx: CliContext, bytes: number | undefined): void {
  if (bytes === undefined || bytes <= LARGE_LISTING_BYTES) return;
  const kb = grouped(Math.round(bytes / 1000));
  const tokens = grouped(Math.round(bytes / 4 / 1000));
  ctx.logger.info(
    `idemgen serve: tools/list is ${kb} KB (about ${tokens}k tokens of a model's context); --dynamic or --code list 3 or 2 tools over the same operations, --include/--exclude list fewer`,
  );
}

/** Resolves on the first of the given events: the server's lifetime. */
function until(events: { stdinEnd?: boolean }): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve('SIGINT'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
    if (events.stdinEnd) process.stdin.once('end', () => resolve('stdin closed'));
  });
}

export async function serveCommand(ctx: CliContext, args: ServeArgs): Promise<number> {
  try {
    return await serve(ctx, args);
  } catch (err) {
    if (!(err instanceof ServeSetupError)) throw err;
    ctx.logger.error(`idemgen serve: ${err.message}`);
    return 2;
  }
}

/** Flags that exclude each other, refused before anything loads. */
function checkModes(args: ServeArgs, config: ResolvedConfig, select: ToolSelection): void {
  if (select.readOnly && select.writesOnly)
    throw new ServeSetupError('--read-only and --writes-only exclude each other');
  if (args.code && args.dynamic) throw new ServeSetupError('--code and --dynamic exclude each other');
  // `execute` keys a run by its own idempotency_key; the host's turn does not reach code mode yet.
  if (args.code && (args.keySource ?? config.tools.keySource) === 'intent')
    throw new ServeSetupError(
      '--code and --key-source intent exclude each other (execute takes its own idempotency_key)',
    );
}

type CodeMode = typeof import('../../serve/code/register.js');

/** Code mode's module, with its sandbox warmed (a missing QuickJS is an install step); undefined without --code. */
async function codeModeOf(args: ServeArgs): Promise<CodeMode | undefined> {
  // Code mode, HTTP and OAuth modules load only for the modes that use them (stdio start-up time).
  if (!args.code) return undefined;
  const code = await import('../../serve/code/register.js');
  await (await import('../../serve/code/isolate.js')).warmSandbox().catch((err: unknown) => {
    throw new ServeSetupError(
      `--code needs the QuickJS sandbox: npm install quickjs-emscripten-core @jitl/quickjs-wasmfile-release-sync (${err instanceof Error ? err.message : String(err)})`,
    );
  });
  return code;
}

/** Who may call the server: the bind address, static tokens or OAuth (never both), per-caller API headers. */
interface Guard {
  host: string;
  tokens: TokenEntry[];
  oauth: OAuthSettings | undefined;
  upstream: UpstreamOptions | undefined;
}

async function guardOf(config: ResolvedConfig, args: ServeArgs): Promise<Guard> {
  const host = args.host === undefined ? '127.0.0.1' : args.host === '' ? '0.0.0.0' : args.host;
  let tokens: TokenEntry[];
  try {
    tokens = parseTokens([
      ...(args.token ?? []),
      ...(process.env.IDEMGEN_SERVE_TOKEN ? [process.env.IDEMGEN_SERVE_TOKEN] : []),
    ]);
  } catch (err) {
    throw new ServeSetupError((err as Error).message);
  }
  const oauth = await oauthOf(config, args);
  const upstream = await upstreamOf(config, args);
  if (oauth !== undefined && tokens.length > 0)
    throw new ServeSetupError(
      'choose one kind of token per server: static --token secrets (local use) or OAuth (--auth-issuer/--auth-audience)',
    );
  if (args.http !== undefined && !isLoopbackHost(host) && tokens.length === 0 && oauth === undefined) {
    throw new ServeSetupError(
      `binding ${host} (not loopback) needs a bearer token: --token SUBJECT=SECRET or IDEMGEN_SERVE_TOKEN, or OAuth with --auth-issuer and --auth-audience (the server holds the API's credentials)`,
    );
  }
  return { host, tokens, oauth, upstream };
}

/** Dynamic and code mode analyse after the handshake: inputs that hold no spec file at all are refused now. */
async function refuseEmptyInputs(ctx: CliContext, inputs: string[]): Promise<void> {
  const [{ discoverInputs }, noDocs] = await Promise.all([
    import('../../load/discover.js'),
    import('../../load/no-documents.js'),
  ]);
  const found = await discoverInputs(inputs, ctx.cwd);
  if (found.candidates.length === 0 && noDocs.isNoDocumentRun(inputs, 0, found.diagnostics))
    throw new InputError([await noDocs.noDocumentDiagnostic(inputs, ctx.cwd)]);
}

/**
 * Arguments that only the specs can check (a selection, a server argument, a per-caller scheme, a base URL
 * the specs may lack) are checked before any client connects, in every mode: a bad one refuses the start
 * (exit 2) instead of showing a client a tool list and then closing the connection.
 */
function isSpecBound(args: ServeArgs): boolean {
  return (
    (args.include?.length ?? 0) > 0 ||
    (args.exclude?.length ?? 0) > 0 ||
    args.readOnly === true ||
    args.writesOnly === true ||
    (args.arg?.length ?? 0) > 0 ||
    (args.upstreamHeader?.length ?? 0) > 0
  );
}

/**
 * The dedup store. A store that cannot be opened (unsupported URL, refused connection) is the user's to fix,
 * not a crash. Both store tables exist before the first call (or, with --no-migrate, the start stops naming
 * the missing one). With the tools known (full mode), none of them keeping a row (all native-key,
 * method-idempotent or reads) means no store is opened, and no driver needed, unless --store names one.
 */
function storeOf(ctx: CliContext, args: ServeArgs, config: ResolvedConfig, analysis: ServeAnalysis | undefined) {
  if (args.store === undefined && analysis !== undefined && !needsStore(analysis))
    return Promise.resolve({ store: undefined, label: 'none (no listed tool needs one)' });
  return openServeStore(args.store, ctx.cwd, config.sql, { migrate: args.migrate, cache: args.cache }).catch(
    (err: unknown) => {
      throw new ServeSetupError(
        `cannot open the dedup store ${args.store ?? '(default)'}: ${err instanceof Error ? err.message : String(err)}`,
      );
    },
  );
}

type Sdk = Awaited<ReturnType<typeof loadSdk>>;

/** What building the servers needs, settled before the first client connects. */
interface SessionSetup {
  ctx: CliContext;
  args: ServeArgs;
  config: ResolvedConfig;
  guard: Guard;
  code: CodeMode | undefined;
  sdk: Sdk;
  store: Awaited<ReturnType<typeof storeOf>>['store'];
  scopeSecret: Uint8Array | undefined;
  serverArguments: Record<string, string>;
  keySource: 'model' | 'intent';
  /** Full mode: the analysis, done before the start; dynamic and code mode: undefined, `analyse` runs later. */
  analysis: ServeAnalysis | undefined;
  analyse: () => Promise<ServeAnalysis>;
}

/** The runtime over an analysis; says per API how many tools go where and which credentials are missing. */
function runtimeOf(s: SessionSetup, analysis: ServeAnalysis): { runtime: McpToolRuntime; total: number } {
  const { runtime, apis } = serveRuntimeOf(analysis, {
    store: s.store,
    sagaTable: s.config.sql.sagaTable,
    baseUrl: s.args.baseUrl,
    env: process.env,
    perCallerSchemes: Object.keys(s.guard.upstream?.headers ?? {}),
    ...(s.scopeSecret !== undefined ? { scopeSecret: s.scopeSecret } : {}),
    confirm: s.args.confirm ?? s.config.serve.confirm ?? 'off',
  });
  for (const a of apis) {
    const missing =
      a.auth.missing.length > 0
        ? `; no credentials for ${a.auth.missing.join(', ')} (set ${a.auth.missing.map((m) => `IDEMGEN_AUTH_${m.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}`).join(', ')})`
        : '';
    s.ctx.logger.info(`idemgen serve: ${a.id}: ${a.tools} tools → ${a.baseUrl}${missing}`);
  }
  return { runtime, total: apis.reduce((n, a) => n + a.tools, 0) };
}

/** An MCP server with the tools registered: code mode's two tools, or the tool runtime's listing. */
function newServer(
  s: SessionSetup,
  source: RuntimeSource,
  listed?: (b: ToolBinding) => boolean,
  caller?: HttpCaller,
): McpServer {
  // The key's retry rule is stated once, in the server's instructions; each listed key property carries
  // a one-line summary. Host-intent mode lists no key argument for the model: no key rule.
  // Code mode keys runs, not calls: its own rule, for `execute`'s key.
  const instructions = s.code ? CODE_KEY_INSTRUCTIONS : s.keySource !== 'intent' ? KEY_INSTRUCTIONS : undefined;
  const server = new s.sdk.McpServer({ name: 'idemgen-serve', version: VERSION }, instructions ? { instructions } : {});
  if (s.code)
    s.code.registerCodeMode(server, source, { serverArguments: s.serverArguments, ...(listed ? { listed } : {}) });
  else
    s.sdk.registerListedToolRuntime(
      server,
      source,
      {
        dynamic: s.args.dynamic === true,
        serverArguments: s.serverArguments,
        keySource: s.keySource,
        compact: true,
        ...(listed ? { listed } : {}),
        // Over HTTP a tool call's request never sees `initialize`: the relay says whether its client can be asked.
        ...(caller ? { elicitation: () => caller.client } : {}),
      },
      s.analysis?.listing,
    );
  return server;
}

/** How each session's server is made, how long the process stays up, and the mode's one-line name. */
interface Sessions {
  makeServer(caller?: HttpCaller): McpServer;
  lifetime(ended: Promise<string>): Promise<void>;
  mode: string;
}

async function sessionsOf(s: SessionSetup): Promise<Sessions> {
  const { args } = s;
  const keyed = s.keySource === 'intent' ? ", writes keyed by the host's _meta intent" : '';
  const modeOf = (total: number | undefined) =>
    args.code
      ? `code mode (search, execute${total === undefined ? '' : ` over ${total} tools`})`
      : `${args.dynamic ? 'dynamic (search_tools, describe_tool, invoke_tool)' : `${total} tools`}${keyed}`;
  const callers = args.http === undefined ? undefined : await import('../../serve/caller.js');
  const { oauth, upstream } = s.guard;
  const viewOptions = { ...(oauth ? { writeScope: oauth.writeScope } : {}), ...(upstream ? { upstream } : {}) };
  const ready = s.analysis === undefined ? undefined : runtimeOf(s, s.analysis);
  // Dynamic and code mode (no analysis yet): the runtime is built once, on demand. The analysis starts after
  // a client's `tools/list` answer, at its first call, or 300 ms after the server is up, whichever comes
  // first; a failure ends the server with its diagnostics (never exit 0 on specs it could not analyse).
  let failed: (err: unknown) => void = () => undefined;
  const failure = new Promise<never>((_, reject) => (failed = reject));
  failure.catch(() => undefined);
  let built: Promise<McpToolRuntime> | undefined;
  const build = (): Promise<McpToolRuntime> => {
    if (built === undefined) {
      built = s.analyse().then((a) => runtimeOf(s, a).runtime);
      built.catch(failed);
    }
    return built;
  };
  /** The runtime a session's server registers (an HTTP caller's view of it) and the tools it lists. */
  const sourceFor = (caller?: HttpCaller): { source: RuntimeSource; listed?: (b: ToolBinding) => boolean } => {
    if (caller === undefined) return { source: ready?.runtime ?? build };
    const listed = callers!.callerListed(caller, viewOptions);
    const view = (runtime: McpToolRuntime) => callers!.callerView(runtime, caller, viewOptions);
    return {
      source: ready === undefined ? () => build().then(view) : view(ready.runtime),
      ...(listed ? { listed } : {}),
    };
  };
  return {
    makeServer: (caller) => {
      const { source, listed } = sourceFor(caller);
      return newServer(s, source, listed, caller);
    },
    /** Waits for the server's end; without an analysis yet, also for a failed one, and (unless stopped by a signal) for its end. */
    lifetime: async (ended) => {
      if (ready !== undefined) {
        await ended;
        return;
      }
      const timer = setTimeout(() => build().catch(() => undefined), 300);
      try {
        const how = await Promise.race([ended, failure]);
        // A signal stops at once; a client that went away leaves the analysis to finish (and be cached).
        if (!how.startsWith('SIG') || built !== undefined) await build();
      } finally {
        clearTimeout(timer);
      }
    },
    mode: modeOf(ready?.total),
  };
}

/** One client over stdin/stdout, until it goes away or a signal arrives. */
async function serveStdio(s: SessionSetup, sessions: Sessions, label: string): Promise<number> {
  const server = sessions.makeServer();
  const transport = new s.sdk.StdioServerTransport();
  const closed = new Promise<string>((resolve) => (transport.onclose = () => resolve('transport closed')));
  await server.connect(transport);
  s.ctx.logger.info(`idemgen serve: ${sessions.mode} over stdio; dedup store ${label}`);
  hintListSize(s.ctx, s.analysis?.listingBytes);
  try {
    await sessions.lifetime(Promise.race([until({ stdinEnd: true }), closed]));
  } finally {
    await server.close();
  }
  return 0;
}

/** Streamable HTTP behind the guard, one server per session, until a signal arrives. */
async function serveHttp(s: SessionSetup, sessions: Sessions, label: string): Promise<number> {
  const { args, guard } = s;
  const { host, tokens, oauth } = guard;
  const { listenHttp } = await import('../../serve/http.js');
  const { server, url } = await listenHttp({
    port: args.http!,
    host,
    tokens,
    allowedOrigins: args.allowedOrigin ?? [],
    loopbackBind: isLoopbackHost(host),
    ...(oauth ? { oauth } : {}),
    makeServer: sessions.makeServer,
    ...(s.code ? {} : { relay: new (await import('../../serve/elicit-relay.js')).ElicitRelay() }),
  }).catch((err: unknown) => {
    throw new ServeSetupError(
      `cannot listen on ${host}:${args.http}: ${err instanceof Error ? err.message : String(err)}`,
    );
  });
  const required = oauth
    ? ` (OAuth access token from ${terminalText(oauth.issuer)} for ${terminalText(oauth.audience)} required; writes need ${terminalText(oauth.writeScope)})`
    : tokens.length > 0
      ? ` (bearer token required, ${tokens.length} subject(s))`
      : '';
  s.ctx.logger.info(`idemgen serve: ${sessions.mode} at ${url}${required}; dedup store ${label}`);
  hintListSize(s.ctx, s.analysis?.listingBytes);
  try {
    await sessions.lifetime(until({}));
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return 0;
}

async function serve(ctx: CliContext, args: ServeArgs): Promise<number> {
  const { config, inputs } = await resolveRun(ctx, args);
  const select = selection(config.select, args);
  checkModes(args, config, select);
  const code = await codeModeOf(args);
  const guard = await guardOf(config, args);
  // Each caller's API credential joins its dedup scope, keyed with this secret (serve/scope-secret.ts).
  const scopeSecret =
    guard.upstream === undefined || args.http === undefined ? undefined : await scopeSecretOf(args.store, ctx.cwd);
  if (args.code || args.dynamic) await refuseEmptyInputs(ctx, inputs);
  const fixed = serverArguments(args.arg ?? []);
  const keySource = args.keySource ?? config.tools.keySource;
  // One tool per operation, listed the same to every caller: the listing is worth keeping with the analysis.
  const listing: RegisterToolRuntimeOptions | undefined =
    args.code || args.dynamic ? undefined : { serverArguments: fixed, keySource, compact: true };
  const analyse = () => analysisOf(ctx, args, config, inputs, select, listing);
  // Dynamic and code mode list fixed tools: the server is up first and analyses the specs after answering a
  // client's `tools/list` (or at its first call), so a large API does not hold up the handshake. In full mode
  // the SDK is imported while the specs are analysed, and the analysis's problems come first.
  const pending = listing !== undefined || isSpecBound(args) ? analyse() : undefined;
  const loading = loadSdk();
  // Neither may reject unobserved while the other is awaited.
  pending?.catch(() => undefined);
  loading.catch(() => undefined);
  const analysis = await pending;
  const sdk = await loading;
  if (args.http === undefined && (guard.tokens.length > 0 || guard.oauth !== undefined || guard.upstream !== undefined))
    ctx.logger.info(
      'idemgen serve: tokens, OAuth and --upstream-header apply to --http only; over stdio the client process is the one principal.',
    );
  const { store, label } = await storeOf(ctx, args, config, analysis);
  try {
    const setup: SessionSetup = {
      ctx,
      args,
      config,
      guard,
      code,
      sdk,
      store,
      scopeSecret,
      serverArguments: fixed,
      keySource,
      analysis,
      analyse,
    };
    const sessions = await sessionsOf(setup);
    return args.http === undefined ? await serveStdio(setup, sessions, label) : await serveHttp(setup, sessions, label);
  } finally {
    await store?.close();
  }
}
