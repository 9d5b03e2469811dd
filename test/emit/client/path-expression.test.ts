import { afterEach, describe, expect, it } from 'vitest';
import type { HttpOperation, Parameter } from '../../../src/ir/types.js';
import { writePathExpression } from '../../../src/emit/client/send-args.js';
import { CodeWriter } from '../../../src/emit/client/code-writer.js';

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

/** The emitted expression, evaluated the way the generated method evaluates it. */
function evaluate(path: string, params: string[], values: Record<string, string>): string {
  const w = new CodeWriter();
  writePathExpression(w, op(path, params));
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the point: run exactly what was emitted
  return new Function('request', `return ${w.toString()};`)({ path: values }) as string;
}

afterEach(() => {
  delete g.__pwned;
});

describe('writePathExpression', () => {
  it('substitutes declared parameters, percent-encoded', () => {
    expect(evaluate('/v1/charges/{id}/refunds', ['id'], { id: 'a/b c' })).toBe('/v1/charges/a%2Fb%20c/refunds');
  });

  it('keeps `${…}` split across a parameter boundary as text (`$` before an undeclared `{…}`)', () => {
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
