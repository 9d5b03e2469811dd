import { columnChangeContext, indexContext, tableContext, type Quoting } from '../context.js';
import { assertNever, type Statement } from '../statements.js';
import { renderSqlTemplate, type SqlTemplateName } from '../templates.js';
import { columnType } from './column-type.js';
import { quoteIdentifier, quoteLiteral, quoteTable } from './quote.js';

const QUOTING: Quoting = { quoteIdentifier, quoteTable, quoteLiteral, columnType };

function render(name: SqlTemplateName, context: object): string {
  return renderSqlTemplate('postgres', name, context);
}

/** One statement → PostgreSQL SQL (templates/sql/postgres/). Exhaustive: a new kind fails to compile. */
export function convertStatement(stmt: Statement): string {
  switch (stmt.kind) {
    case 'create_schema':
      return render('create-schema', { schema: quoteIdentifier(stmt.schema) });
    case 'create_table':
      return render('create-table', tableContext(stmt.def, QUOTING));
    case 'drop_table':
      return render('drop-table', { table: quoteTable(stmt.table) });
    case 'create_index':
      return render('create-index', indexContext(stmt.table, stmt.index, QUOTING));
    case 'drop_index':
      return render('drop-index', indexContext(stmt.table, stmt.index, QUOTING));
    case 'add_column':
      return render('add-column', columnChangeContext(stmt.table, stmt.column, QUOTING));
    case 'drop_column':
      return render('drop-column', columnChangeContext(stmt.table, stmt.column, QUOTING));
    default:
      return assertNever(stmt, 'statement');
  }
}
