import { sanitizeComment } from './identifiers.js';
import type { SqlDialect } from './sql-dialect.js';
import type { Migration, Statement } from './statements.js';
import { renderSqlTemplate } from './templates.js';

export interface RenderedMigration {
  up: string;
  down: string;
}

function renderExample(dialect: SqlDialect, example: NonNullable<Migration['example']>): string {
  return renderSqlTemplate(dialect.name, 'owned-example', {
    table: dialect.quoteTable(example.table),
    operations: example.operations.map(sanitizeComment),
    lines: dialect.renderOwnedInsert(example.table).split('\n'),
  });
}

function renderFile(dialect: SqlDialect, migration: Migration, direction: 'up' | 'down', statements: readonly Statement[], extra: string[]): string {
  const body = [...statements.map((s) => dialect.convertStatement(s)), ...extra].join('\n\n');
  const text = renderSqlTemplate(dialect.name, 'file', {
    name: migration.name,
    direction,
    dialect: dialect.label,
    title: migration.title,
    notes: [...dialect.notes(statements), ...(direction === 'up' ? migration.notes : [])].map(sanitizeComment),
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
