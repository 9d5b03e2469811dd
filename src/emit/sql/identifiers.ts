import { createHash } from 'node:crypto';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';

/**
 * SQL identifier policy (docs/decisions/0009-policy-validate-then-quote.md): a name from config or spec must be a
 * plain ASCII identifier no longer than the strictest engine allows. Everything else — quotes,
 * semicolons, `--`, `/*`, spaces, unicode, empty — is rejected with `invalid_sql_identifier`
 * rather than quoted, so the same name means the same table in every dialect and in the runtime
 * stores. Converters still quote every identifier (defence in depth).
 */
export const SQL_IDENTIFIER_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** PostgreSQL keeps 63 bytes (NAMEDATALEN - 1) and silently truncates longer names; MySQL allows 64. */
const MAX_PORTABLE_IDENTIFIER_LENGTH = 63;

/** Why `name` is not an acceptable identifier, or undefined when it is. */
export function identifierProblem(name: string, maxLength = MAX_PORTABLE_IDENTIFIER_LENGTH): string | undefined {
  if (name.length === 0) return 'is empty';
  if (name.length > maxLength) return `is ${name.length} characters long (at most ${maxLength})`;
  if (!SQL_IDENTIFIER_PATTERN.test(name)) {
    return 'may only contain ASCII letters, digits and underscores, and must not start with a digit';
  }
  return undefined;
}

/** A table prefix may be empty; otherwise the same characters as an identifier. */
export function prefixProblem(prefix: string, maxLength = MAX_PORTABLE_IDENTIFIER_LENGTH): string | undefined {
  return prefix === '' ? undefined : identifierProblem(prefix, maxLength);
}

export function invalidIdentifier(
  what: string,
  name: string,
  problem: string,
  file: string | undefined,
  pointer: string,
): Diagnostic {
  return diagnostic('invalid_sql_identifier', 'error', `${what} ${JSON.stringify(name.slice(0, 80))} ${problem}`, {
    file,
    pointer,
    hint: 'Use a name matching [A-Za-z_][A-Za-z0-9_]* of at most 63 characters (see docs/decisions/0009-policy-validate-then-quote.md).',
  });
}

/**
 * A name derived from a validated table name (`<table>_prune_idx`). When it would exceed the
 * engine limit — PostgreSQL would silently truncate it and two indexes could collide — the base is
 * shortened and a hash of the full name keeps it unique and stable.
 */
export function deriveName(base: string, suffix: string, maxLength = MAX_PORTABLE_IDENTIFIER_LENGTH): string {
  const full = `${base}${suffix}`;
  if (full.length <= maxLength) return full;
  const digest = createHash('sha256').update(full).digest('hex').slice(0, 8);
  return `${base.slice(0, maxLength - suffix.length - digest.length - 1)}_${digest}${suffix}`;
}
