import type { ResolvedConfig } from '../../config/types.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { identifierProblem, invalidIdentifier, prefixProblem } from './identifiers.js';
import type { TableName } from './statements.js';

/**
 * Validates the `sql` config names (docs/decisions/0009-policy-validate-then-quote.md). Each diagnostic points
 * at the config key the name came from; a table name derived from a bad prefix is reported once,
 * at the prefix.
 */
export function checkStoreNames(sql: ResolvedConfig['sql'], file?: string): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (sql.schema !== undefined) {
    const problem = identifierProblem(sql.schema);
    if (problem) out.push(invalidIdentifier('sql.schema', sql.schema, problem, file, '/sql/schema'));
  }
  const badPrefix = prefixProblem(sql.tablePrefix);
  if (badPrefix) out.push(invalidIdentifier('sql.tablePrefix', sql.tablePrefix, badPrefix, file, '/sql/tablePrefix'));
  const tables = [
    ['dedupTable', sql.dedupTable, `${sql.tablePrefix}dedup`],
    ['sagaTable', sql.sagaTable, `${sql.tablePrefix}saga`],
  ] as const;
  for (const [key, name, derived] of tables) {
    if (badPrefix && name === derived) continue;
    const problem = identifierProblem(name);
    if (problem) out.push(invalidIdentifier(`sql.${key}`, name, problem, file, `/sql/${key}`));
  }
  return out;
}

/** An owned table may be qualified once (`sales.orders`); each part is an identifier. */
export function parseOwnedTable(name: string): { table?: TableName; problem?: string } {
  const parts = name.split('.');
  if (parts.length > 2) return { problem: 'has more than one "." (expected table or schema.table)' };
  for (const part of parts) {
    const problem = identifierProblem(part);
    if (problem) return { problem: parts.length > 1 ? `has a part that ${problem}` : problem };
  }
  return { table: parts.length === 2 ? { schema: parts[0], name: parts[1] } : { name: parts[0] } };
}
