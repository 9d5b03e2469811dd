import { sqlComment } from '../../escape/index.js';
import type { SqlDialect } from './sql-dialect.js';
import type { Migration, Statement } from './statements.js';
import { renderSqlTemplate } from './templates.js';

export interface RenderedMigration {
  up: string;
  down: string;
}

function renderExample(dialect: SqlDialect, example: NonNullable<Migration['example']>): string {
  return renderSqlTemplate(dialect.name, 'owned-example', {
    table: sqlComment(dialect.quoteTable(example.table)),
    operations: example.operations.map(sqlComment),
    lines: dialect.renderOwnedInsert(example.table).split('\n').map(sqlComment),
  });
}

function renderFile(
  dialect: SqlDialect,
  migration: Migration,
  direction: 'up' | 'down',
  statements: readonly Statement[],
  extra: string[],
): string {
  const body = [...statements.map((s) => dialect.convertStatement(s)), ...extra].join('\n\n');
  const text = renderSqlTemplate(dialect.name, 'file', {
    // Everything in the header is a `--` comment; the body is quoted identifiers and our own SQL.
    name: sqlComment(migration.name),
    direction,
    dialect: sqlComment(dialect.label),
    title: sqlComment(migration.title),
    notes: [...dialect.notes(statements), ...(direction === 'up' ? migration.notes : [])].map(sqlComment),
    body,
  });
  return `${text}\n`;
}

/** A migration → its up and down scripts: fixed header, LF endings, one trailing newline. */
export function renderMigration(dialect: SqlDialect, migration: Migration): RenderedMigration {
  const example = migration.example ? [renderExample(dialect, migration.example)] : [];
  return {
    up: renderFile(dialect, migration, 'up', migration.up, example),
    down: renderFile(dialect, migration, 'down', migration.down, []),
  };
}
