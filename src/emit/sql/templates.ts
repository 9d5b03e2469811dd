import { template } from '../templates.js';
import type { Dialect } from '../../config/types.js';

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

/** Render with LF endings and no trailing blank lines, whatever the template file's line endings. */
export function renderSqlTemplate(dialect: Dialect, name: SqlTemplateName, context: object): string {
  return template(`sql/${dialect}/${name}.sql.hbs`)(context).replace(/\r\n?/g, '\n').replace(/\n+$/, '');
}
