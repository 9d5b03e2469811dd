import { afterEach, describe, expect, it } from 'vitest';
import type { HttpOperation, Parameter } from '../../../src/ir/types.js';
import { writePathExpression } from '../../../src/emit/client/send-args.js';
import { CodeWriter } from '../../../src/emit/client/code-writer.js';
import { InvalidArgumentsError } from '../../../src/runtime/index.js';
import { expandPath } from '../../../src/runtime/http/request-check.js';

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

/**
 * The emitted `path: …` members, evaluated the way the generated method evaluates them, then substituted as
 * the runtime's `send` does (`expandPath` when `pathParams` is there).
 */
function evaluate(path: string, params: string[], values: Record<string, string>): string {
  const w = new CodeWriter();
  w.write('({ path: ');
  writePathExpression(w, op(path, params));
  w.write(' })');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the point: run exactly what was emitted
  const req = new Function('request', `return ${w.toString()};`)({ path: values }) as {
    path: string;
    pathParams?: Record<string, unknown>;
  };
  return req.pathParams === undefined ? req.path : expandPath(req.path, req.pathParams);
}

afterEach(() => {
  delete g.__pwned;
});

describe('writePathExpression', () => {
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
