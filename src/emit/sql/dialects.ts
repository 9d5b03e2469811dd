import type { Dialect } from '../../config/types.js';
import { dialect as mysql } from './mysql/index.js';
import { dialect as postgres } from './postgres/index.js';
import type { SqlDialect } from './sql-dialect.js';
import { dialect as sqlite } from './sqlite/index.js';

/** Dialects in a map, like reporters in knip: adding one is one entry. */
export const SQL_DIALECTS: Readonly<Record<Dialect, SqlDialect>> = { postgres, sqlite, mysql };
