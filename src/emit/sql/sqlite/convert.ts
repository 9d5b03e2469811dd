import { createConverter } from '../convert.js';
import type { Quoting } from '../context.js';
import { columnType } from './column-type.js';
import { quoteIdentifier, quoteLiteral, quoteTable } from './quote.js';

const QUOTING: Quoting = { quoteIdentifier, quoteTable, quoteLiteral, columnType };

/** One statement → SQLite SQL (templates/sql/sqlite/). */
export const convertStatement = createConverter('sqlite', QUOTING, { schemas: false });
