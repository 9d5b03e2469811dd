import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import type { Dialect } from '../../config/types.js';

/**
 * SQL templates live in the package's `templates/sql/<dialect>/`. This module sits at
 * `src/emit/sql/` (tsx, vitest) or `dist/emit/sql/` (built); both are three levels below the
 * package root, so one relative URL serves both.
 */
const TEMPLATE_ROOT = new URL('../../../templates/sql/', import.meta.url);

/** The template names every dialect folder provides (same files per dialect, STYLE habit 5). */
export type SqlTemplateName =
  | 'file'
  | 'create-schema'
  | 'create-table'
  | 'drop-table'
  | 'create-index'
  | 'drop-index'
  | 'add-column'
  | 'drop-column'
  | 'exact-columns'
  | 'owned-example';

// An isolated instance: no helpers or partials registered by anyone else can change our output.
const hbs = Handlebars.create();
const cache = new Map<string, Handlebars.TemplateDelegate>();

/**
 * Compiled once per (dialect, name). `noEscape`: SQL must never be HTML-escaped (every identifier
 * is quoted by the dialect before it reaches a template); `strict`: a missing field throws instead
 * of rendering an empty string (STYLE habit 8).
 */
function sqlTemplate(dialect: Dialect, name: SqlTemplateName): Handlebars.TemplateDelegate {
  const id = `${dialect}/${name}`;
  let template = cache.get(id);
  if (!template) {
    const source = readFileSync(new URL(`${id}.sql.hbs`, TEMPLATE_ROOT), 'utf8');
    template = hbs.compile(source, { noEscape: true, strict: true });
    cache.set(id, template);
  }
  return template;
}

/** Render with LF endings and no trailing blank lines, whatever the template file's line endings. */
export function renderSqlTemplate(dialect: Dialect, name: SqlTemplateName, context: object): string {
  return sqlTemplate(dialect, name)(context).replace(/\r\n?/g, '\n').replace(/\n+$/, '');
}
