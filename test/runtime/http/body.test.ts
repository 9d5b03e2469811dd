/** Body key carriers: the key at an exact path, envelopes created, the caller's body untouched, per-variant paths. */
import { describe, expect, it } from 'vitest';
import {
  buildUrl,
  encodeBody,
  pickKeyPath,
  withBodyField,
  type QueryStyle,
} from '../../../packages/runtime/src/http/body.js';

describe('withBodyField', () => {
  it('writes at a nested path, creating the envelope objects, without mutating the caller', () => {
    const body = { data: { type: 'gb', attributes: { sortCode: '1' } } };
    const out = withBodyField(body, ['data', 'attributes', 'idempotencyKey'], 'k1');
    expect(out).toEqual({ data: { type: 'gb', attributes: { sortCode: '1', idempotencyKey: 'k1' } } });
    expect(body.data.attributes).toEqual({ sortCode: '1' });
    expect(withBodyField(undefined, ['request', 'idempotency_key'], 'k2')).toEqual({
      request: { idempotency_key: 'k2' },
    });
  });

  it('a path segment may contain a dot (an array path is not split)', () => {
    expect(withBodyField({}, ['meta.v1', 'key'], 'k')).toEqual({ 'meta.v1': { key: 'k' } });
    expect(withBodyField({}, 'meta.key', 'k')).toEqual({ meta: { key: 'k' } });
  });

  it('refuses a raw body', () => {
    expect(() => withBodyField('text', ['k'], 'v')).toThrow(TypeError);
  });
});

describe('pickKeyPath', () => {
  const paths = [['idempotency_key'], ['request', 'idempotency_key'], ['data', 'attributes', 'idempotencyKey']];
  it('the path whose envelope the body already has, deepest first; the first on a tie', () => {
    expect(pickKeyPath({ request: {} }, paths)).toEqual(['request', 'idempotency_key']);
    expect(pickKeyPath({ data: { attributes: {} } }, paths)).toEqual(['data', 'attributes', 'idempotencyKey']);
    expect(pickKeyPath({ data: {} }, paths)).toEqual(['data', 'attributes', 'idempotencyKey']);
    expect(pickKeyPath({ amount: 1 }, paths)).toEqual(['idempotency_key']);
  });
});

describe('encodeBody (JSON)', () => {
  it('an optional body left out sends no body and no content type; an explicit null is the JSON text null', () => {
    expect(encodeBody('json', undefined)).toEqual({});
    expect(encodeBody('json', null)).toEqual({ body: 'null', contentType: 'application/json' });
    expect(encodeBody('json', { a: 1 })).toEqual({ body: '{"a":1}', contentType: 'application/json' });
  });
});

describe('encodeBody (form, multipart)', () => {
  it('sends an empty array as the empty string (Stripe: "pass an empty string" for an empty list); an empty object sets nothing', () => {
    const body = { values: [], metadata: {}, items: [{ tax_rates: [] }], name: 'n', gone: undefined };
    expect(decodeURIComponent(encodeBody('form', body).body as string)).toBe('values=&items[0][tax_rates]=&name=n');
    const form = encodeBody('multipart', body).body as FormData;
    expect([...form.entries()]).toEqual([
      ['values', ''],
      ['items[0][tax_rates]', ''],
      ['name', 'n'],
    ]);
    expect(encodeBody('form', {}).body).toBe('');
    expect(encodeBody('multipart', undefined)).toEqual({});
  });

  it('a GET body moved to the query still leaves an empty list out', () => {
    expect(buildUrl('http://h', '/r', undefined, { expand: [], limit: 3 })).toBe('http://h/r?limit=3');
  });
});

describe('buildUrl', () => {
  it('a query parameter given as null is left out like an absent one; nested nulls stay empty form values', () => {
    expect(buildUrl('http://h/api', '/alerts', { state: null, page: 2, filter: { kind: null } })).toBe(
      'http://h/api/alerts?page=2&filter%5Bkind%5D=',
    );
    expect(buildUrl('http://h', '/alerts', { state: '' })).toBe('http://h/alerts?state=');
  });

  it('writes each query parameter in its declared style; no style keeps the bracket style', () => {
    const q = { ids: ['a b', 'c,d'], f: { x: 1, y: 'z' }, n: 3, plain: ['p', 'q'] };
    const at = (styles: Record<string, QueryStyle>) =>
      buildUrl('http://h', '/r', q, undefined, styles).slice('http://h/r?'.length);
    expect(at({})).toBe('ids%5B0%5D=a+b&ids%5B1%5D=c%2Cd&f%5Bx%5D=1&f%5By%5D=z&n=3&plain%5B0%5D=p&plain%5B1%5D=q');
    expect(at({ ids: 'multi', f: 'multi', n: 'multi' })).toBe(
      'ids=a+b&ids=c%2Cd&x=1&y=z&n=3&plain%5B0%5D=p&plain%5B1%5D=q',
    );
    // The separator is literal; a comma inside an item stays encoded, so the server can split exactly.
    expect(at({ ids: 'csv', f: 'csv' })).toMatch(/^ids=a\+b,c%2Cd&f=x,1,y,z&n=3&/);
    expect(at({ ids: 'ssv', plain: 'pipes' })).toMatch(/^ids=a\+b%20c%2Cd&.*&plain=p\|q$/);
    expect(at({ plain: 'tsv' })).toMatch(/&plain=p%09q$/);
  });

  it('leaves out an empty list in a delimited style, and an inherited name is not a style', () => {
    expect(buildUrl('http://h', '/r', { ids: [], m: [] }, undefined, { ids: 'csv', m: 'multi' })).toBe('http://h/r');
    expect(buildUrl('http://h', '/r', { constructor: ['a'] }, undefined, {})).toBe('http://h/r?constructor%5B0%5D=a');
  });

  it("keeps a query written into the path template first, and a GET body's fields after in brackets", () => {
    expect(
      buildUrl('http://h/v1', '/responses/x?beta=true', { include: ['a'] }, { expand: ['b'] }, { include: 'multi' }),
    ).toBe('http://h/v1/responses/x?beta=true&include=a&expand%5B0%5D=b');
  });
});
