/**
 * `serveStdioFromEnv`: the stdio `main()` of every generated `mcp/<api>.server.gen.ts`, written once. The
 * environment configures it: `IDEMGEN_STORE` (store URL, default `sqlite:idemgen.sqlite` in the working
 * directory), `IDEMGEN_MIGRATE=0` (do not create the store tables, only check them), `IDEMGEN_BASE_URL`,
 * `IDEMGEN_AUTH_<SCHEME>` (named by the module's auth map), `IDEMGEN_ARG_<NAME>` (server-side tool
 * arguments, e.g. an account id), `IDEMGEN_DYNAMIC=1`, `IDEMGEN_KEY_SOURCE=intent` (writes keyed by
 * the host's `_meta` intent, intent.ts) and `IDEMGEN_CONFIRM=irreversible|writes` (which writes wait for the
 * user's yes through MCP elicitation, runtime/tools/human.ts). Before the server answers, the store's dedup and
 * saga tables exist: created from the module's generated DDL (`mcp/store-tables.gen.ts`), then probed.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { checkStoreTables, migrateStore, type StoreTablesDdl } from '../store/migrate.js';
import { openStore } from '../store/open.js';
import type { DedupStore } from '../store/types.js';
import { CONFIRM_POLICIES, type ConfirmPolicy } from '../tools/human.js';
import { KEY_SOURCES, type McpKeySource } from './intent.js';

/** What `main()` hands the module's `register<Api>Tools`. */
export interface EnvServerOptions {
  /** Absent when the module's `needsStore` is `false`. */
  store?: DedupStore;
  auth: Record<string, string>;
  serverArguments: Record<string, string>;
  dynamic: boolean;
  /** `IDEMGEN_KEY_SOURCE`; absent: the module's default (`model` unless generated with `tools.keySource`). */
  keySource?: McpKeySource;
  baseUrl?: string;
  /** The saga table the DDL made, when not `idemgen_saga`. */
  sagaTable?: string;
  /** `IDEMGEN_CONFIRM`: which writes wait for the user's yes (MCP elicitation); absent: `off`. */
  confirm?: ConfirmPolicy;
}

export interface StdioServerModule {
  name: string;
  version: string;
  /** Security scheme → the environment variable holding its credential. */
  authEnv: Readonly<Record<string, string>>;
  register: (server: McpServer, options: EnvServerOptions) => void;
  /** The store tables' DDL per dialect (generated); without it the tables are only checked. */
  storeTables?: StoreTablesDdl;
  /** `false`: no tool keeps a row (every write has a native key or is method-idempotent), so no store is opened. Default `true`. */
  needsStore?: boolean;
}

const ARG_PREFIX = 'IDEMGEN_ARG_';

/** Opens the configured store with both tables in place, or rejects naming the table that is missing. */
async function readyStore(module: StdioServerModule, env: Record<string, string | undefined>): Promise<DedupStore> {
  const tables = module.storeTables;
  let url = env.IDEMGEN_STORE ?? 'sqlite:idemgen.sqlite';
  // The dedup table the DDL made, unless the URL names one (`?table=`).
  if (tables?.dedupTable !== undefined && !/[?&]table=/.test(url))
    url = `${url}${url.includes('?') ? '&' : '?'}table=${encodeURIComponent(tables.dedupTable)}`;
  if (tables !== undefined && env.IDEMGEN_MIGRATE !== '0') await migrateStore(url, tables);
  const store = await openStore(url);
  try {
    await checkStoreTables(store, tables?.sagaTable);
  } catch (err) {
    await store.close();
    throw err;
  }
  return store;
}

/** Reads the configuration from `env`, makes the store ready, registers the tools and serves over stdio. */
export async function serveStdioFromEnv(
  module: StdioServerModule,
  env: Record<string, string | undefined> = process.env,
): Promise<McpServer> {
  const auth: Record<string, string> = {};
  for (const [scheme, name] of Object.entries(module.authEnv)) {
    const value = env[name];
    if (value) auth[scheme] = value;
  }
  const serverArguments: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith(ARG_PREFIX) && value !== undefined) serverArguments[name.slice(ARG_PREFIX.length)] = value;
  }
  const keySource = env.IDEMGEN_KEY_SOURCE;
  if (keySource !== undefined && keySource !== '' && !KEY_SOURCES.includes(keySource as McpKeySource))
    throw new Error(`IDEMGEN_KEY_SOURCE=${JSON.stringify(keySource)}: expected ${KEY_SOURCES.join(' or ')}`);
  const confirm = env.IDEMGEN_CONFIRM;
  if (confirm !== undefined && confirm !== '' && !CONFIRM_POLICIES.includes(confirm as ConfirmPolicy))
    throw new Error(`IDEMGEN_CONFIRM=${JSON.stringify(confirm)}: expected ${CONFIRM_POLICIES.join(', ')}`);
  const store = module.needsStore === false ? undefined : await readyStore(module, env);
  const server = new McpServer({ name: module.name, version: module.version });
  module.register(server, {
    ...(store !== undefined ? { store } : {}),
    auth,
    serverArguments,
    dynamic: env.IDEMGEN_DYNAMIC === '1',
    ...(keySource ? { keySource: keySource as McpKeySource } : {}),
    ...(confirm ? { confirm: confirm as ConfirmPolicy } : {}),
    ...(module.storeTables?.sagaTable !== undefined ? { sagaTable: module.storeTables.sagaTable } : {}),
    ...(env.IDEMGEN_BASE_URL ? { baseUrl: env.IDEMGEN_BASE_URL } : {}),
  });
  await server.connect(new StdioServerTransport());
  return server;
}

/** For a generated module run as a program: a start-up failure is one line on stderr and exit code 1. */
export function reportStartFailure(err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`MCP server did not start: ${message.replace(/\s*\n\s*/g, ' ')}\n`);
  process.exitCode = 1;
}
