import { afterEach, describe, expect, it } from 'vitest';
import type { HttpOperation, Parameter } from '../../../src/ir/types.js';
import type { ApiPlan, PlanEntry } from '../../../src/classify/types.js';
import { descriptionFields } from '../../../src/emit/client/descriptions.js';
import { operationRecord } from '../../../src/emit/operation-record.js';
import type { OperationDescription } from '../../../packages/runtime/src/client/operation.js';
import { checkedRequest } from '../../../packages/runtime/src/client/operation.js';
import { InvalidArgumentsError } from '../../../packages/runtime/src/index.js';
import { expandPath } from '../../../packages/runtime/src/http/request-check.js';

const g = globalThis as { __pwned?: unknown };

function op(path: string, params: string[]): HttpOperation {
  const parameters: Parameter[] = params.map((name) => ({ name, in: 'path', required: true, pointer: '' }));
  return {
    kind: 'http',
    key: `GET ${path}`,
    name: 'x',
    deprecated: false,
    extensions: {},
    source: { file: 'x', pointer: '' },
    method: 'get',
    path,
    tags: [],
    parameters,
    responses: [],
    servers: [],
    pathExtensions: {},
  };
}

/** The record of a read with these path parameters, as the client emitter prints it. */
function record(path: string, params: string[]): OperationDescription {
  const entry = { effect: 'read', mechanism: 'none', operation: op(path, params) } as unknown as PlanEntry;
  const apiPlan = { api: { root: {}, operations: [] } } as unknown as ApiPlan;
  return operationRecord(apiPlan, entry, op(path, params));
}

/**
 * The emitted description of the operation, evaluated the way the module evaluates its `ops` constant, then
 * turned into the checked request the engine sends (`checkedRequest`, which refuses a bad value) and substituted as the runtime's `send` does.
 */
function evaluate(path: string, params: string[], values: Record<string, string>): string {
  const text = `({ ${descriptionFields(record(path, params)).join(', ')} })`;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the point: run exactly what was emitted
  const d = new Function(`return ${text};`)() as OperationDescription;
  const req = checkedRequest(d, { path: values });
  return req.pathParams === undefined ? req.path : expandPath(req.path, req.pathParams);
}

afterEach(() => {
  delete g.__pwned;
});

describe('the path of an emitted operation description', () => {
  it('substitutes declared parameters, percent-encoded', () => {
    expect(evaluate('/v1/charges/{id}/refunds', ['id'], { id: 'a/b c' })).toBe('/v1/charges/a%2Fb%20c/refunds');
  });

  it('refuses an empty or dot-segment value (raw or percent-encoded) instead of moving the request', () => {
    for (const id of ['', '.', '..', '%2e', '%2E%2e', '.%2E', '%252e%252e']) {
      expect(() => evaluate('/v1/customers/{id}', ['id'], { id }), JSON.stringify(id)).toThrow(InvalidArgumentsError);
    }
    // Dots inside a longer value are ordinary characters.
    expect(evaluate('/v1/files/{id}', ['id'], { id: '...' })).toBe('/v1/files/...');
    expect(evaluate('/v1/files/{id}', ['id'], { id: 'a..b' })).toBe('/v1/files/a..b');
  });

  it('keeps `${…}` next to a parameter as text (`$` before an undeclared `{…}`)', () => {
    const path = '/a/{id}/${globalThis.__pwned=1}';
    expect(evaluate(path, ['id'], { id: 'x' })).toBe('/a/x/${globalThis.__pwned=1}');
    expect(g.__pwned).toBeUndefined();
  });

  it('keeps backticks, backslashes and a `$` right before a parameter as text', () => {
    const path = '/`+globalThis.__pwned+`/\\$/${id}';
    expect(evaluate(path, ['id'], { id: 'v' })).toBe('/`+globalThis.__pwned+`/\\$/$v');
    expect(g.__pwned).toBeUndefined();
  });

  it('writes a path without declared parameters as a plain string', () => {
    expect(evaluate('/a/${globalThis.__pwned=1}', [], {})).toBe('/a/${globalThis.__pwned=1}');
    expect(g.__pwned).toBeUndefined();
  });
});
