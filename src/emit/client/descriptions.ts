/**
 * The client's `ops` constant: one operation record (emit/operation-record.ts, the runtime's
 * `OperationDescription`) per method, printed as TypeScript data. Each method is a one-line typed facade
 * passing its entry to the runtime's engine. Every spec string goes through the escaping helpers (spec text is
 * untrusted): `tsString` for strings, `tsObjectKey` for keys, `jsonText` for arrays and the verification plan.
 */
import type { HttpOperation } from '../../ir/types.js';
import type { ApiPlan } from '../../classify/types.js';
import type { OperationDescription } from '@idemgen/runtime/support';
import { operationRecord } from '../operation-record.js';
import { jsonText, tsNumber, tsObjectKey, tsString } from '../../escape/index.js';
import type { CodeWriter } from './code-writer.js';
import type { ClientOperation } from './client-class.js';
import { OPS_CONSTANT } from './client-class.js';
import type { WriterFunction } from './structures.js';

/** One value of a record as TypeScript: strings escaped, arrays as JSON, objects member by member in their order. */
function valueText(value: unknown): string {
  if (typeof value === 'string') return tsString(value);
  if (typeof value === 'number') return tsNumber(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return jsonText(value);
  const members = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  return `{ ${members.map(([k, v]) => `${tsObjectKey(k)}: ${valueText(v)}`).join(', ')} }`;
}

/** `name: value` members of one record, in the record's order. */
export function descriptionFields(record: OperationDescription): string[] {
  return Object.entries(record)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${k === 'verification' ? jsonText(v) : valueText(v)}`);
}

/** One description per line, whatever its length: Graph has 11,422 of them, and a line each keeps the diff per operation. */
function writeDescription(w: CodeWriter, key: string, fields: string[]): void {
  w.writeLine(`${key}: { ${fields.join(', ')} },`);
}

/**
 * `const ops = { listCharges: { … }, … } as const satisfies Record<string, OperationDescription>;`. Each record
 * (emit/operation-record.ts: the operation as the runtime runs it) is made when its line is printed, so 11,422
 * records (Graph) are not all alive while the rest of the file is built.
 */
export function operationsStatement(
  ops: ClientOperation[],
  methodName: (op: HttpOperation) => string,
  apiPlan: ApiPlan,
): WriterFunction {
  return (w) => {
    w.writeLine('/** Each operation as data for the runtime engine; the methods below are typed facades over it. */');
    w.writeLine(`const ${OPS_CONSTANT} = {`);
    w.indent(() => {
      for (const c of ops)
        writeDescription(w, tsObjectKey(methodName(c.op)), descriptionFields(operationRecord(apiPlan, c.entry, c.op)));
    });
    w.write('} as const satisfies Record<string, OperationDescription>;');
  };
}
