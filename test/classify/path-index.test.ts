/** The per-API path index behind inverse and collection lookups answers what the per-operation scans did. */
import { describe, expect, it } from 'vitest';
import { ClassifyMemo } from '../../src/classify/memo.js';
import { collectionBase, parentOfItem, pathIndex } from '../../src/classify/path-index.js';
import type { Operation } from '../../src/ir/types.js';

const op = (method: string, path: string, kind = 'http'): Operation =>
  ({ kind, method, path, key: `${method.toUpperCase()} ${path}`, toolName: path }) as unknown as Operation;

/** The scans the index replaced, kept here as the reference. */
const scanBelow = (ops: Operation[], post: string) => {
  const base = post.replace(/\/+$/, '');
  return ops.find(
    (o) =>
      o.kind === 'http' &&
      o.method === 'delete' &&
      o.path.startsWith(`${base}/`) &&
      /^\/\{[^}/]+\}$/.test(o.path.slice(base.length)),
  );
};
const scanItem = (ops: Operation[], post: string) => {
  const base = post.replace(/\/+$/, '');
  return ops.some(
    (o) => o.kind === 'http' && /^\/\{[^}/]+\}$/.test(o.path.slice(base.length)) && o.path.startsWith(`${base}/`),
  );
};

describe('pathIndex', () => {
  const ops = [
    op('delete', '/things/{id}'),
    op('delete', '/things/{other}'),
    op('delete', '/things/{id}/parts/{part}'),
    op('get', '/orders/{id}'),
    op('delete', '/a//{b}'),
    op('delete', '/{id}'),
    op('delete', '/users/{id}.json'),
    op('put', '/user/starred/{owner}/{repo}'),
    op('delete', '/user/starred/{owner}/{repo}'),
    op('delete', '/tools/{x}', 'tool'),
  ];
  const index = pathIndex(new ClassifyMemo(), new Map(ops.map((o, i) => [`${o.key}#${i}`, o])));

  it('finds the first DELETE one template segment below a collection, as the scan did', () => {
    for (const post of [
      '/things',
      '/things/',
      '/things//',
      '/things/{id}/parts',
      '/orders',
      '/a',
      '/a/',
      '/',
      '',
      '/users',
      '/tools',
      '/nothing',
    ]) {
      expect(index.deleteBelow.get(collectionBase(post))).toBe(scanBelow(ops, post));
      expect(index.hasItemBelow.has(collectionBase(post))).toBe(scanItem(ops, post));
    }
  });

  it('finds the DELETE of the same path for a PUT', () => {
    expect(index.deleteAt.get('/user/starred/{owner}/{repo}')?.method).toBe('delete');
    expect(index.deleteAt.get('/orders/{id}')).toBeUndefined();
  });

  it('reads the parent of an item path only when the last segment is one whole template', () => {
    expect([parentOfItem('/a/{b}'), parentOfItem('/a/{b}.json'), parentOfItem('/{b}'), parentOfItem('/a/b')]).toEqual([
      '/a',
      undefined,
      '',
      undefined,
    ]);
  });

  it('is built once per operation map and run, and again in the next run', () => {
    const byKey = new Map(ops.map((o, i) => [`${o.key}#${i}`, o]));
    const run = new ClassifyMemo();
    expect(pathIndex(run, byKey)).toBe(pathIndex(run, byKey));
    const next = pathIndex(new ClassifyMemo(), byKey);
    expect(next).not.toBe(pathIndex(run, byKey));
    expect(next).toEqual(pathIndex(run, byKey));
  });
});
