/**
 * `serveStdioFromEnv`: the stdio `main()` of every generated `mcp/<api>.server.gen.ts`, written once. The
 * environment configures it: `IDEMGEN_STORE` (a migrated store URL, default `sqlite:idemgen.sqlite`),
 * `IDEMGEN_BASE_URL`, `IDEMGEN_AUTH_<SCHEME>` (named by the module's auth map), `IDEMGEN_ARG_<NAME>`
 * (server-side tool arguments, e.g. an account id) and `IDEMGEN_DYNAMIC=1`.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { openStore } from '../store/open.js';
import type { DedupStore } from '../store/types.js';

/** What `main()` hands the module's `register<Api>Tools`. */
export interface EnvServerOptions {
  store: DedupStore;
  auth: Record<string, string>;
  serverArguments: Record<string, string>;
  dynamic: boolean;
  baseUrl?: string;
}

export interface StdioServerModule {
  name: string;
  version: string;
  /** Security scheme → the environment variable holding its credential. */
  authEnv: Readonly<Record<string, string>>;
  register: (server: McpServer, options: EnvServerOptions) => void;
}

const ARG_PREFIX = 'IDEMGEN_ARG_';

/** Reads the configuration from `env`, registers the tools and serves over stdio. */
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
  const server = new McpServer({ name: module.name, version: module.version });
  module.register(server, {
    store: await openStore(env.IDEMGEN_STORE ?? 'sqlite:idemgen.sqlite'),
    auth,
    serverArguments,
    dynamic: env.IDEMGEN_DYNAMIC === '1',
    ...(env.IDEMGEN_BASE_URL ? { baseUrl: env.IDEMGEN_BASE_URL } : {}),
  });
  await server.connect(new StdioServerTransport());
  return server;
}
