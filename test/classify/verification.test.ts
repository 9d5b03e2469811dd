/**
 * Verification plans from the spec and from overrides: found with their evidence, forbidden by
 * `verification: false`, declared paste-ready (the audit's override text classifies back to the same plan),
 * and a declared read that is not a GET is a finding, not a plan.
 */
import { describe, expect, it } from 'vitest';
import { overrideOf } from '../../src/classify/verification.js';
import { classifyOne, codes, http, rules } from './helpers.js';

const json = (schema: Record<string, unknown>) => ({
  required: true,
  pointer: '/rb',
  content: [{ mediaType: 'application/json', schema, pointer: '/m' }],
});
const create = http('post', '/zones', {
  requestBody: json({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }),
  responses: [{ status: '201', content: [], headers: [], pointer: '/r' }],
});
const read = http('get', '/zones/{name}', {
  parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' }, pointer: '/p' }],
});

describe('verification plans', () => {
  it('a required body name that addresses a read is a natural-key plan, with its evidence', () => {
    const { entry } = classifyOne(create, { others: [read] });
    expect(entry.mechanism).toBe('fail-closed');
    expect(entry.verification?.shape).toBe('natural-key');
    expect(rules(entry)).toContain('verification_natural_key');
  });

  it('an optional name is no identifier: no plan', () => {
    const optional = http('post', '/zones', {
      requestBody: json({ type: 'object', properties: { name: { type: 'string' } } }),
    });
    expect(classifyOne(optional, { others: [read] }).entry.verification).toBeUndefined();
  });

  it('verification: false forbids the plan; a declared plan round-trips through its override text', () => {
    const off = classifyOne(create, {
      others: [read],
      config: { overrides: { 'POST /zones': { verification: false } } },
    });
    expect(off.entry.verification).toBeUndefined();
    const found = classifyOne(create, { others: [read] }).entry.verification!;
    const declared = classifyOne(create, {
      others: [read],
      config: { overrides: { 'POST /zones': { verification: overrideOf(found) } } },
    });
    expect(declared.entry.verification).toEqual(found);
    expect(rules(declared.entry)).toContain('verification_override');
  });

  it('a declared read that is not a GET of the API is a finding and no plan', () => {
    const { entry, plan } = classifyOne(create, {
      others: [read],
      config: {
        overrides: { 'POST /zones': { verification: { shape: 'natural-key', read: 'DELETE /zones/{name}' } } },
      },
    });
    expect(entry.verification).toBeUndefined();
    expect(codes(plan)).toContain('verification_read_missing');
  });

  it('a 409 "already exists" is a refused-duplicate plan; a 400 saying so is not', () => {
    const refusal = (status: string) =>
      http('post', '/things', {
        requestBody: json({ type: 'object', properties: { title: { type: 'string' } } }),
        responses: [
          { status, description: 'A thing with this title already exists', content: [], headers: [], pointer: '/r' },
        ],
      });
    expect(classifyOne(refusal('409')).entry.verification).toEqual({ shape: 'refused-duplicate', statuses: [409] });
    expect(classifyOne(refusal('400')).entry.verification).toBeUndefined();
  });
});
