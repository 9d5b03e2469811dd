import { createConverter } from '../convert.js';
import type { Quoting } from '../context.js';
import { columnType } from './column-type.js';
import { quoteIdentifier, quoteLiteral, quoteTable } from './quote.js';

const QUOTING: Quoting = { quoteIdentifier, quoteTable, quoteLiteral, columnType };

/** One statement → MySQL/MariaDB SQL (templates/sql/mysql/). */
export const convertStatement = createConverter('mysql', QUOTING, { schemas: false });
