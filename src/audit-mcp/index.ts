/**
 * `idemgen audit --mcp "<command>" --mcp-url <url>`: each live server's tools/list becomes a tool-list
 * LoadedDoc, exactly what the loader makes of an MCP tools/list file, so the IR, the classifier and
 * every report treat it alike. With `--save FILE` the list is written first and read back through
 * the loader, so findings point at lines of the snapshot that `generate`/`check` can later run from.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError, diagnostic, InputError, type Diagnostic } from '../diagnostics/diagnostic.js';
import { loadInputs, toolListAt, type LoadedDoc } from '../load/index.js';
import { parseHeader, splitCommand } from './command.js';
import type { LiveTarget } from './connect.js';

export { annotationFindings } from './annotations.js';

export interface LiveOptions {
  mcp?: string[];
  mcpUrl?: string[];
  header?: string[];
  timeoutMs: number;
  save?: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  clientVersion: string;
}

export interface LiveResult {
  docs: LoadedDoc[];
  /** tools/list pages read per server label. */
  pages: Record<string, number>;
}

function targets(opts: LiveOptions): LiveTarget[] {
  const problems: Diagnostic[] = [];
  const headers: Record<string, string> = {};
  for (const h of opts.header ?? []) {
    const parsed = parseHeader(h, opts.env);
    if (Array.isArray(parsed)) headers[parsed[0]] = parsed[1];
    else problems.push(diagnostic('invalid_mcp_option', 'error', parsed.error));
  }
  const out: LiveTarget[] = [];
  for (const text of opts.mcp ?? []) {
    let argv: string[] = [];
    try {
      argv = splitCommand(text);
    } catch (err) {
      problems.push(
        diagnostic('invalid_mcp_option', 'error', `--mcp ${JSON.stringify(text)}: ${(err as Error).message}`),
      );
    }
    if (argv.length === 0)
      problems.push(diagnostic('invalid_mcp_option', 'error', '--mcp needs a command to start the server'));
    else
      out.push({ kind: 'stdio', label: `mcp:${argv.join(' ')}`, command: argv[0], args: argv.slice(1), cwd: opts.cwd });
  }
  for (const text of opts.mcpUrl ?? []) {
    let url: URL | undefined;
    try {
      url = new URL(text);
    } catch {
      problems.push(diagnostic('invalid_mcp_option', 'error', `--mcp-url ${JSON.stringify(text)} is not a URL`));
    }
    if (url && !/^https?:$/.test(url.protocol))
      problems.push(diagnostic('invalid_mcp_option', 'error', `--mcp-url ${text}: only http(s) is supported`));
    // The label never carries credentials or query strings into reports.
    else if (url) out.push({ kind: 'http', label: `${url.protocol}//${url.host}${url.pathname}`, url, headers });
  }
  if (opts.save !== undefined && out.length !== 1)
    problems.push(
      diagnostic('invalid_mcp_option', 'error', `--save snapshots exactly one server; ${out.length} given`),
    );
  if (!Number.isFinite(opts.timeoutMs) || opts.timeoutMs <= 0)
    problems.push(diagnostic('invalid_mcp_option', 'error', '--mcp-timeout must be a positive number of milliseconds'));
  if (problems.length > 0) throw new ConfigError(problems);
  return out;
}

/**
 * The MCP client side, loaded only for --mcp/--mcp-url: the SDK is an optional peer, and an audit of specs
 * or code must run without it.
 */
async function liveClient(): Promise<typeof import('./connect.js')> {
  try {
    return await import('./connect.js');
  } catch (err) {
    if (
      (err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' &&
      String((err as Error).message).includes('@modelcontextprotocol/sdk')
    )
      throw new ConfigError([
        diagnostic(
          'invalid_mcp_option',
          'error',
          'idemgen audit --mcp/--mcp-url needs the MCP SDK: npm install @modelcontextprotocol/sdk',
        ),
      ]);
    throw err;
  }
}

export async function auditLiveServers(opts: LiveOptions): Promise<LiveResult> {
  const docs: LoadedDoc[] = [];
  const failures: Diagnostic[] = [];
  const pages: Record<string, number> = {};
  const { listLiveTools } = await liveClient();
  for (const target of targets(opts)) {
    let list: Awaited<ReturnType<typeof listLiveTools>>;
    try {
      list = await listLiveTools(target, opts.timeoutMs, opts.clientVersion);
    } catch (err) {
      failures.push(
        diagnostic('mcp_server_failed', 'error', `${target.label}: ${(err as Error).message}`, {
          file: target.label,
          hint: 'check the command or URL; raise --mcp-timeout for a slow server',
        }),
      );
      continue;
    }
    pages[target.label] = list.pages;
    const snapshot = { server: { ...list.server, source: target.label }, tools: list.tools };
    if (opts.save !== undefined) {
      const file = resolve(opts.cwd, opts.save);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, `${JSON.stringify(snapshot, null, 2)}\n`);
      const loaded = await loadInputs([file], { cwd: opts.cwd });
      if (loaded.diagnostics.some((d) => d.severity === 'error')) throw new InputError(loaded.diagnostics);
      docs.push(...loaded.docs);
    } else {
      const tools = toolListAt(list.tools, '/tools');
      docs.push({
        file: target.label,
        kind: 'tools',
        format: 'mcp',
        syntax: 'json',
        root: snapshot,
        locate: () => undefined,
        parts: [],
        tools,
      });
    }
  }
  if (failures.length > 0) throw new InputError(failures);
  return { docs, pages };
}
