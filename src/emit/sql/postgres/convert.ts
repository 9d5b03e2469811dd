import { createConverter } from '../convert.js';
import type { Quoting } from '../context.js';
import { columnType } from './column-type.js';
import { quoteIdentifier, quoteLiteral, quoteTable } from './quote.js';

const QUOTING: Quoting = { quoteIdentifier, quoteTable, quoteLiteral, columnType };

/** One statement → PostgreSQL SQL (templates/sql/postgres/). */
export const convertStatement = createConverter('postgres', QUOTING, { schemas: true });
