/**
 * The secret `idemgen serve` keys per-caller API credentials with before they join the dedup scope
 * (runtime/core/principal.ts). Every instance that shares a store must use the same one, or the same caller's
 * retry on another instance would find no row and run again:
 * - `IDEMGEN_SCOPE_SECRET` (at least 32 bytes) wins;
 * - else a SQLite store keeps its own beside the database file (`<file>.scope-secret`, created once, mode 0600),
 *   so every process that opens that file agrees; `memory:` lives as long as the process and so does its secret;
 * - a shared store (PostgreSQL, MySQL/MariaDB, Redis) has no file all its instances see: the start is refused.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { checkScopeSecret } from '@idemgen/runtime/internal/core/principal.js';

const SCOPE_SECRET_ENV = 'IDEMGEN_SCOPE_SECRET';

/** A problem the operator fixes (no secret for a shared store, a short one): one line, exit 2. */
class ScopeSecretError extends Error {}

/** The SQLite file a `sqlite:` URL names, relative to `cwd`; undefined for other stores. */
function sqliteFile(url: string, cwd: string): string | undefined {
  if (!url.startsWith('sqlite:')) return undefined;
  const rest = url.slice('sqlite:'.length).split('?')[0] ?? '';
  const path = decodeURIComponent(rest.startsWith('//') ? rest.slice(2) : rest);
  return isAbsolute(path) ? path : join(cwd, path);
}

/** Reads the file's secret, creating it first if there is none (`wx`: two starts racing agree on the winner's). */
function fileSecret(file: string): Uint8Array {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return checkScopeSecret(readFileSync(file, 'utf8').trim(), file);
}

/** `storeUrl`: as given to `--store` (undefined: the default SQLite file `defaultStore`). */
export function serveScopeSecret(
  storeUrl: string | undefined,
  defaultStore: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Uint8Array {
  const given = env[SCOPE_SECRET_ENV];
  try {
    if (given !== undefined && given !== '') return checkScopeSecret(given, SCOPE_SECRET_ENV);
    const url = storeUrl ?? `sqlite:${defaultStore}`;
    if (url === 'memory:' || url === 'memory') return randomBytes(32);
    const file = sqliteFile(url, cwd);
    if (file !== undefined) return fileSecret(`${file}.scope-secret`);
  } catch (err) {
    throw new ScopeSecretError(`the dedup scope secret: ${err instanceof Error ? err.message : String(err)}`);
  }
  throw new ScopeSecretError(
    `--upstream-header with a shared store needs ${SCOPE_SECRET_ENV} (at least 32 bytes, the same on every instance): each caller's API credential joins its dedup scope as an HMAC under it`,
  );
}
