import { describe, expect, it } from 'vitest';
import { makeSource } from '../../src/load/source.js';

const JSON_TEXT = `{
  "paths": {
    "/a/{id}": {
      "get": { "x": [10, {"y~z": true}] }
    },
    "we\\"ird": 1
  }
}`;

const YAML_TEXT = `paths:
  /a/{id}:
    get:
      x:
        - 10
        - y~z: true
  'we"ird': 1
anchors:
  base: &b {k: 1}
  copy: *b
`;

describe('locate: RFC 6901 pointer → 1-based line/col', () => {
  const json = makeSource('/t/a.json', 'a.json', JSON_TEXT);
  const yaml = makeSource('/t/a.yaml', 'a.yaml', YAML_TEXT);

  it.each([
    ['', 1, 1],
    ['/paths', 2, 3],
    ['/paths/~1a~1{id}/get', 4, 7],
    ['/paths/~1a~1{id}/get/x/1/y~0z', 4, 27],
    ['/paths/we"ird', 6, 5],
    ['/paths/~1a~1{id}/nope', 3, 5],
  ])('JSON %s', (pointer, line, col) => {
    expect(json.locate(pointer)).toEqual({ line, col });
  });

  it.each([
    ['', 1, 1],
    ['/paths/~1a~1{id}/get', 3, 5],
    ['/paths/~1a~1{id}/get/x/1/y~0z', 6, 11],
    ['/paths/we"ird', 7, 3],
    ['/anchors/copy/k', 9, 13],
    ['/missing/deeper', 1, 1],
  ])('YAML %s', (pointer, line, col) => {
    expect(yaml.locate(pointer)).toEqual({ line, col });
  });

  it('a malformed pointer gives undefined', () => {
    expect(json.locate('paths')).toBeUndefined();
  });
});
