import type { Plan, PlanEntry } from '../../classify/types.js';
import type { ResolvedConfig } from '../../config/types.js';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { appendPointer } from '../../json-pointer/pointer.js';
import { invalidIdentifier } from './identifiers.js';
import { parseOwnedTable } from './names.js';
import type { TableName } from './statements.js';

export interface OwnedTable {
  table: TableName;
  /** Operation keys that insert into it, sorted. */
  operations: string[];
}

/** The config key an entry's override was found under (key, then operationId/tool name, then name). */
function overrideKey(entry: PlanEntry, config: ResolvedConfig): string {
  const op = entry.operation;
  const candidates = [op.key, op.kind === 'http' ? op.operationId : op.toolName, op.name];
  return candidates.find((c): c is string => c !== undefined && config.overrides[c]?.table !== undefined) ?? op.key;
}

function ownedTableName(entry: PlanEntry, config: ResolvedConfig): string | undefined {
  return entry.ownedTable ?? config.overrides[overrideKey(entry, config)]?.table;
}

/**
 * OP-4 operations whose override names the owned table (unique-insert, docs/concepts.md#mechanisms). A table named on an operation
 * that is not OP-4 is reported, not silently altered: the classification decided otherwise.
 */
export function collectOwnedTables(
  plan: Plan,
  config: ResolvedConfig,
): { tables: OwnedTable[]; diagnostics: Diagnostic[] } {
  const byName = new Map<string, OwnedTable>();
  const diagnostics: Diagnostic[] = [];
  for (const entry of plan.apis.flatMap((a) => a.entries)) {
    const name = ownedTableName(entry, config);
    if (name === undefined) continue;
    const pointer = appendPointer('', 'overrides', overrideKey(entry, config), 'table');
    if (entry.mechanism !== 'unique-insert') {
      diagnostics.push(
        diagnostic(
          'owned_table_unused',
          'info',
          `${entry.operation.key} names owned table ${JSON.stringify(name)} but is planned as ${entry.mechanism}, so no unique-insert column is emitted for it`,
          { file: config.configFile, pointer },
        ),
      );
      continue;
    }
    const parsed = parseOwnedTable(name);
    if (!parsed.table) {
      diagnostics.push(
        invalidIdentifier(
          `overrides[${JSON.stringify(entry.operation.key)}].table`,
          name,
          parsed.problem ?? 'is invalid',
          config.configFile,
          pointer,
        ),
      );
      continue;
    }
    const owned = byName.get(name) ?? { table: parsed.table, operations: [] };
    owned.operations.push(entry.operation.key);
    byName.set(name, owned);
  }
  const tables = [...byName.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, t]) => ({ ...t, operations: [...new Set(t.operations)].sort() }));
  return { tables, diagnostics };
}
