/**
 * What went wrong with a `--store` URL, as one line the user can act on: the driver package to install, the
 * server that did not answer (host and port, never the password), the table to create, or the URL that is not
 * one. Shared by `reconcile`, `prune`, `migrate` and `serve`.
 */
import { ConfigError, diagnostic } from '../../diagnostics/diagnostic.js';
import { isStoreUnavailable, unavailableReason } from '@idemgen/runtime/internal/core/unavailable.js';

/** The driver package each store scheme needs (an optional peer). */
const DRIVERS: readonly { scheme: RegExp; kind: string; driver: string }[] = [
  { scheme: /^sqlite:/, kind: 'SQLite', driver: 'better-sqlite3' },
  { scheme: /^postgres(ql)?:/, kind: 'PostgreSQL', driver: 'pg' },
  { scheme: /^(mysql|mariadb):/, kind: 'MySQL/MariaDB', driver: 'mysql2' },
  { scheme: /^(redis|rediss|valkey|valkeys):/, kind: 'Redis/Valkey', driver: 'redis' },
];

function kindOf(url: string): { kind: string; driver: string } | undefined {
  return DRIVERS.find((d) => d.scheme.test(url));
}

/** `host:port` of a network store URL (no user, no password), or the URL's scheme when it does not parse. */
function serverOf(url: string): string {
  try {
    const u = new URL(url);
    return u.port !== '' ? `${u.hostname}:${u.port}` : u.hostname;
  } catch {
    return url.split(':')[0] ?? url;
  }
}

/** The package a "cannot find module" error names (`mysql2/promise` → `mysql2`), if it is one. */
function missingPackage(err: unknown): string | undefined {
  for (let e: unknown = err; e !== undefined && e !== null; e = (e as { cause?: unknown }).cause) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') continue;
    const m = /Cannot find (?:package|module) '((?:@[^/']+\/)?[^/']+)/.exec(String(message));
    if (m !== null) return m[1];
  }
  return undefined;
}

/** Socket codes in words; the driver's own text otherwise. */
const REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNRESET: 'connection reset',
};

function reasonOf(err: unknown): string {
  for (let e: unknown = err; e !== undefined && e !== null; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && REASONS[code] !== undefined) return REASONS[code];
    const nested = (e as { errors?: unknown }).errors; // AggregateError of a dual-stack connect
    if (Array.isArray(nested) && nested.length > 0) return reasonOf(nested[0]);
  }
  return unavailableReason(err);
}

function oneLine(text: string): string {
  return text.split('\n')[0]!.trim();
}

/** A `ConfigError` (exit 2) with one diagnostic and no file: printed as one line. */
export function storeFailure(code: string, message: string): ConfigError {
  return new ConfigError([diagnostic(code, 'error', message)]);
}

/**
 * The one line for an error met while opening or using the store at `url`: a missing driver names the package
 * to install, an unreachable server names itself, a missing table names `idemgen migrate`. `undefined` for an
 * error that is none of these (a bug, left to surface as one).
 */
export function describeStoreError(url: string, err: unknown): ConfigError | undefined {
  if (err instanceof ConfigError) return err;
  const store = kindOf(url);
  const pkg = missingPackage(err);
  if (store !== undefined && pkg !== undefined && pkg === store.driver) {
    return storeFailure(
      'store_driver_missing',
      `${/^[a-z]+:\/\//i.test(url) ? `${url.split(':')[0]}://` : `${url.split(':')[0]}:`} stores need the ${store.driver} package, which is not installed: npm i ${store.driver}`,
    );
  }
  const message = isStoreUnavailable(err) ? unavailableReason(err) : oneLine(String((err as Error)?.message ?? err));
  if (store !== undefined && !/^sqlite/.test(url) && isStoreUnavailable(err)) {
    return storeFailure(
      'store_unavailable',
      `the ${store.kind} server at ${serverOf(url)} did not answer (${reasonOf(err)}): start it, or pass the right --store URL`,
    );
  }
  if (/no such table|does not exist|doesn't exist|Unknown database|missing table/i.test(message)) {
    return storeFailure(
      'store_unavailable',
      `the store has no dedup table (${message}): run \`idemgen migrate --store …\` or apply generated/sql/<dialect>/0001_idemgen_dedup.up.sql`,
    );
  }
  if (
    store !== undefined &&
    /Access denied|password authentication|authentication failed|WRONGPASS|NOAUTH/i.test(message)
  ) {
    return storeFailure(
      'store_unavailable',
      `the ${store.kind} server at ${serverOf(url)} refused the login (${message}): check the user and password in --store`,
    );
  }
  return undefined;
}
