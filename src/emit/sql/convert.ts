import { columnChangeContext, exactColumnsContext, indexContext, tableContext, type Quoting } from './context.js';
import { assertNever, type Statement } from './statements.js';
import { renderSqlTemplate } from './templates.js';
import type { Dialect } from '../../config/types.js';

/**
 * One statement → SQL for a dialect, through that dialect's templates (templates/sql/<dialect>/) and
 * quoting. Exhaustive: a new statement kind fails to compile. The dialect folders differ only in their
 * quoting, column types and templates, so the switch lives here once.
 */
export function createConverter(
  dialect: Dialect,
  quoting: Quoting,
  opts: { schemas: boolean },
): (stmt: Statement) => string {
  const render = (name: Parameters<typeof renderSqlTemplate>[1], context: object): string =>
    renderSqlTemplate(dialect, name, context);
  return (stmt) => {
    switch (stmt.kind) {
      case 'create_schema':
        // Only PostgreSQL has schemas to create; the migration builder never asks the others for one.
        if (!opts.schemas) throw new Error(`internal error: ${stmt.kind} is not supported by ${dialect}`);
        return render('create-schema', { schema: quoting.quoteIdentifier(stmt.schema) });
      case 'create_table':
        return render('create-table', tableContext(stmt.def, quoting));
      case 'drop_table':
        return render('drop-table', { table: quoting.quoteTable(stmt.table) });
      case 'create_index':
        return render('create-index', indexContext(stmt.table, stmt.index, quoting));
      case 'drop_index':
        return render('drop-index', indexContext(stmt.table, stmt.index, quoting));
      case 'add_column':
        return render('add-column', columnChangeContext(stmt.table, stmt.column, quoting));
      case 'drop_column':
        return render('drop-column', columnChangeContext(stmt.table, stmt.column, quoting));
      case 'exact_columns':
        return render('exact-columns', exactColumnsContext(stmt.table, stmt.columns, quoting));
      default:
        return assertNever(stmt, 'statement');
    }
  };
}
