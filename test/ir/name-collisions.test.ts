import { describe, expect, it } from 'vitest';
import { buildApiModel } from '../../src/ir/index.js';
import { operationBaseName, operationNameRank } from '../../src/ir/names.js';
import { docOf, ok } from './helpers.js';

type Paths = Record<string, Record<string, unknown>>;

function namesOf(paths: Paths) {
  const { api, diagnostics } = buildApiModel(docOf({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths }));
  return {
    names: Object.fromEntries(api.operations.map((o) => [o.key, o.name])),
    collisions: diagnostics.filter((d) => d.code === 'operation_name_collision'),
  };
}

/** The same paths, inserted in reverse order: names must not depend on it. */
function reversed(paths: Paths): Paths {
  return Object.fromEntries(Object.entries(paths).reverse());
}

// Rule operation_name_collision (DESIGN §3: never a silent overwrite or rename).
const cases: { rule: string; why: string; paths: Paths; names: Record<string, string>; renamed: string[] }[] = [
  {
    rule: 'operation_name_collision',
    why: 'a verbatim operationId beats a sanitized one, whatever the key order',
    paths: {
      '/a': { get: { operationId: 'make-promise', ...ok } },
      '/b': { post: { operationId: 'makePromise', ...ok } },
    },
    names: { 'GET /a': 'makePromise2', 'POST /b': 'makePromise' },
    renamed: ['GET /a'],
  },
  {
    rule: 'operation_name_collision',
    why: 'a verbatim operationId beats a name synthesized from method + path',
    paths: { '/things': { get: { ...ok } }, '/z': { post: { operationId: 'getThings', ...ok } } },
    names: { 'GET /things': 'getThings2', 'POST /z': 'getThings' },
    renamed: ['GET /things'],
  },
  {
    rule: 'operation_name_collision',
    why: 'a re-cased identifier (PostCharges → postCharges) beats a synthesized name',
    paths: { '/charges': { post: { ...ok } }, '/v1/x': { post: { operationId: 'PostCharges', ...ok } } },
    names: { 'POST /charges': 'postCharges2', 'POST /v1/x': 'postCharges' },
    renamed: ['POST /charges'],
  },
  {
    rule: 'operation_name_collision',
    why: 'two sanitized operationIds: key order decides',
    paths: {
      '/b': { post: { operationId: 'make.promise', ...ok } },
      '/a': { post: { operationId: 'make-promise', ...ok } },
    },
    names: { 'POST /a': 'makePromise', 'POST /b': 'makePromise2' },
    renamed: ['POST /b'],
  },
  {
    rule: 'no collision',
    why: 'distinct names are left alone',
    paths: { '/a': { get: { operationId: 'listThings', ...ok }, post: { operationId: 'create-thing', ...ok } } },
    names: { 'GET /a': 'listThings', 'POST /a': 'createThing' },
    renamed: [],
  },
];

describe('operation names', () => {
  it.each(cases)('$rule: $why', ({ paths, names, renamed }) => {
    for (const p of [paths, reversed(paths)]) {
      const got = namesOf(p);
      expect(got.names).toEqual(names);
      expect(got.collisions.map((d) => d.message.split(' (')[0])).toEqual(renamed);
      for (const d of got.collisions) {
        expect(d.severity).toBe('warning');
        const holder = Object.keys(names).find(
          (k) => k !== renamed[0] && names[k] === names[renamed[0]].replace(/\d+$/, ''),
        );
        expect(d.message).toContain(holder!);
        expect(d.pointer).toMatch(/^\/paths\//);
      }
    }
  });

  it.each([
    [undefined, 'getThings', 3],
    ['make-promise', 'makePromise', 2],
    ['delete', 'delete_', 2],
    ['PostCharges', 'postCharges', 1],
    ['make_promise', 'makePromise', 1],
    ['makePromise', 'makePromise', 0],
  ] as const)('operationNameRank(%s) = %i', (id, base, rank) => {
    expect(operationBaseName('post', '/x', id)).toBe(id === undefined ? 'postX' : base);
    expect(operationNameRank(id, base)).toBe(rank);
  });
});
