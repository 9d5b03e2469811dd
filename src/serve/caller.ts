/**
 * What one HTTP caller may do and with whose API credentials. Per request, `idemgen serve --http` wraps
 * the shared tool runtime in a view for its caller:
 * - OAuth: a token without the write scope is shown only the read tools, and a write it calls anyway is
 *   refused before anything runs (`insufficient_scope`, executed: no).
 * - Upstream credentials per user: a scheme mapped to a request header (`--upstream-header SCHEME=HEADER`)
 *   takes the caller's own credential from that header; a mapped scheme never falls back to a server-wide
 *   secret, and the MCP access token itself is never sent upstream (the MCP spec forbids token passthrough).
 *   The credentials travel as the call's `credentials`: the tool runtime sends them and keys their hash into
 *   the dedup scope (runtime/core/principal.ts), in every mode — tools, `--dynamic` and `--code` all call through
 *   this view.
 */
import type { McpToolRuntime } from '@idemgen/runtime/mcp';
import type { ToolAuth } from '@idemgen/runtime/tools';
import type { ToolBinding, ToolOutcome } from '@idemgen/runtime/tools';
import type { HttpCaller } from './http.js';

export interface UpstreamOptions {
  /** Security scheme name → the request header carrying the caller's credential for it (lower-cased). */
  headers: Readonly<Record<string, string>>;
}

/** `SCHEME=Header-Name` pairs; the Authorization header is the MCP token's and cannot be mapped. */
export function parseUpstreamHeaders(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const header = pair
      .slice(eq + 1)
      .trim()
      .toLowerCase();
    if (eq <= 0 || !/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(header))
      throw new TypeError(`--upstream-header ${JSON.stringify(pair)}: expected SCHEME=HEADER-NAME`);
    if (header === 'authorization' || header === 'cookie')
      throw new TypeError(
        `--upstream-header ${JSON.stringify(pair)}: the ${header} header carries the MCP client's own credential, which is never forwarded upstream; name a header of its own (x-upstream-token)`,
      );
    out[pair.slice(0, eq)] = header;
  }
  return out;
}

const refusal = (code: string, message: string): ToolOutcome => ({
  ok: false,
  error: { code, message, executed: 'no', retry_same_key: true },
});

const schemesOf = (b: ToolBinding): Set<string> =>
  new Set((b.security ?? []).flatMap((alternative) => alternative.map((s) => s.scheme)));

const mayWrite = (caller: HttpCaller, writeScope: string | undefined): boolean =>
  writeScope === undefined || (caller.auth?.scopes ?? []).includes(writeScope);

/** Which tools this caller is shown (`listed` of the tool registration), known before any runtime exists. */
export function callerListed(
  caller: HttpCaller,
  opts: { writeScope?: string },
): ((binding: ToolBinding) => boolean) | undefined {
  return mayWrite(caller, opts.writeScope) ? undefined : (b) => b.effect !== 'write';
}

/** The shared runtime as this caller may use it: writes need the scope, mapped schemes take its headers. */
export function callerView(
  runtime: McpToolRuntime,
  caller: HttpCaller,
  opts: { writeScope?: string; upstream?: UpstreamOptions },
): McpToolRuntime {
  const canWrite = mayWrite(caller, opts.writeScope);
  const byName = new Map(runtime.list().map((b) => [b.names.mcp, b]));
  const mapped = Object.entries(opts.upstream?.headers ?? {});
  const view: McpToolRuntime = {
    list: () => runtime.list(),
    call: async (name, args, ctx) => {
      const binding = byName.get(name);
      if (binding !== undefined && binding.effect === 'write' && !canWrite)
        return refusal(
          'insufficient_scope',
          `Not executed: ${name} changes data, and the access token lacks the ${opts.writeScope} scope (insufficient_scope). Ask for a token with that scope, then retry with the same key.`,
        );
      const creds: Record<string, ToolAuth[string]> = {};
      const needs = binding === undefined ? new Set<string>() : schemesOf(binding);
      for (const [scheme, header] of mapped) {
        const value = caller.headers[header];
        if (typeof value === 'string' && value !== '') creds[scheme] = value;
        else if (needs.has(scheme))
          return refusal(
            'upstream_credential_missing',
            `Not executed: this server calls the API with each user's own credential, and the request has no ${header} header for ${scheme}.`,
          );
      }
      return runtime.call(name, args, Object.keys(creds).length > 0 ? { ...ctx, credentials: creds } : ctx);
    },
  };
  return view;
}
