/**
 * Verification plans from the spec and from overrides: found with their evidence, forbidden by
 * `verification: false`, declared paste-ready (the audit's override text classifies back to the same plan),
 * and a declared read that is not a GET is a finding, not a plan.
 */
import { describe, expect, it } from 'vitest';
import { overrideOf } from '../../src/classify/verification.js';
import type { Operation } from '../../src/ir/types.js';
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

  it('an optional name still addresses the read (a call without it has no lookup value); an optional key does not', () => {
    const optional = (field: string, param: string) =>
      classifyOne(
        http('post', '/zones', {
          requestBody: json({ type: 'object', properties: { [field]: { type: 'string' } } }),
        }),
        {
          others: [
            http('get', `/zones/{${param}}`, {
              parameters: [{ name: param, in: 'path', required: true, schema: { type: 'string' }, pointer: '/p' }],
            }),
          ],
        },
      ).entry.verification;
    expect(optional('name', 'name')).toMatchObject({ shape: 'natural-key', read: { operation: 'GET /zones/{name}' } });
    expect(optional('zone_key', 'zone_key')).toBeUndefined();
    expect(optional('id', 'id')).toBeUndefined();
  });

  it('a readOnly or uuid body field is no name the caller chose; a read that lists is no address', () => {
    const withField = (schema: Record<string, unknown>, readPath = '/zones/{name}', list = false) =>
      classifyOne(
        http('post', '/zones', {
          requestBody: json({ type: 'object', required: ['name'], properties: { name: schema } }),
        }),
        {
          others: [
            http('get', readPath, {
              parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' }, pointer: '/p' }],
              responses: [
                {
                  status: '200',
                  headers: [],
                  pointer: '/r',
                  content: [
                    {
                      mediaType: 'application/json',
                      pointer: '/m',
                      schema: list ? { type: 'array', items: { type: 'object' } } : { type: 'object' },
                    },
                  ],
                },
              ],
            }),
          ],
        },
      ).entry.verification;
    expect(withField({ type: 'string' })?.shape).toBe('natural-key');
    expect(withField({ type: 'string', readOnly: true })).toBeUndefined();
    expect(withField({ type: 'string', format: 'uuid' })).toBeUndefined();
    const underscore = classifyOne(
      http('post', '/groups', {
        requestBody: json({ type: 'object', required: ['_id'], properties: { _id: { type: 'string' } } }),
      }),
      {
        others: [
          http('get', '/groups/{id}', {
            parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' }, pointer: '/p' }],
          }),
        ],
      },
    ).entry;
    expect(underscore.verification).toBeUndefined();
    expect(withField({ type: 'string' }, '/zones/{name}', true)).toBeUndefined();
  });

  it("a PUT to an item of a collection with a create updates it (no plan); without a create the path is the caller's name", () => {
    const put = http('put', '/jobs/{job}', {
      parameters: [{ name: 'job', in: 'path', required: true, schema: { type: 'string' }, pointer: '/p' }],
      requestBody: json({ type: 'object', properties: { script: { type: 'string' } } }),
      summary: 'Submits a job',
    });
    const get = http('get', '/jobs/{job}', {
      parameters: [{ name: 'job', in: 'path', required: true, schema: { type: 'string' }, pointer: '/p' }],
    });
    const post = http('post', '/jobs', { requestBody: json({ type: 'object' }) });
    const alone = classifyOne(put, { others: [get] }).entry;
    const withCreate = classifyOne(put, { others: [get, post] }).entry;
    expect(alone.mechanism).toBe('fail-closed');
    expect(alone.verification).toMatchObject({ shape: 'natural-key', read: { operation: 'GET /jobs/{job}' } });
    expect(withCreate.mechanism).toBe('fail-closed');
    expect(withCreate.verification).toBeUndefined();
    const upsert = classifyOne(
      { ...put, summary: 'Submits a job, or changes the one already there' },
      { others: [get] },
    );
    expect(upsert.entry.mechanism).toBe('fail-closed');
    expect(upsert.entry.verification).toBeUndefined();
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

  it("a 409 that gives other causes, names what the request lacks, or is every write's boilerplate is no plan", () => {
    const op = (path: string, description: string, extra: Record<string, unknown> = {}) =>
      http('post', path, {
        requestBody: json({ type: 'object', properties: { title: { type: 'string' } } }),
        responses: [{ status: '409', description, content: [], headers: [], pointer: '/r' }],
        ...extra,
      });
    const plan = (o: ReturnType<typeof op>, others: ReturnType<typeof op>[] = []) =>
      classifyOne(o, { others }).entry.verification;
    expect(plan(op('/things', 'A thing with this title already exists'))?.shape).toBe('refused-duplicate');
    expect(plan(op('/things', 'Returned if the thing already exists, or the account is out of space'))).toBeUndefined();
    expect(plan(op('/things', 'This is normally because the title already exists'))).toBeUndefined();
    expect(plan(op('/things', 'A thing with that name already exists'))).toBeUndefined();
    expect(plan(op('/things', 'The title is already assigned to another project'))).toBeUndefined();
    expect(plan(op('/things/{thing_id}', 'A thing with this title already exists'))).toBeUndefined();
    expect(
      plan(op('/things', 'A thing with that title already exists', { summary: 'Updates the thing' })),
    ).toBeUndefined();
    const shared = 'Conflict - if a resource being created already exists';
    const many = ['/a', '/b', '/c', '/d', '/e'].map((p) => op(p, shared));
    expect(plan(op('/things', shared), many.slice(0, 4))?.shape).toBe('refused-duplicate');
    expect(plan(op('/things', shared), many)).toBeUndefined();
  });

  it('"already been <state>" is a plan only for the action that reaches that state, and only alone', () => {
    const action = (path: string, description: string) =>
      classifyOne(
        http('put', path, {
          responses: [{ status: '409', description, content: [], headers: [], pointer: '/r' }],
        }),
      ).entry;
    const cancel = action('/orders/{id}/cancel', 'This order has already been cancelled');
    expect(cancel.mechanism).not.toBe('method-idempotent');
    expect(cancel.verification).toEqual({ shape: 'refused-duplicate', statuses: [409] });
    expect(action('/orders/{id}/complete', 'This order has already been cancelled').verification).toBeUndefined();
    expect(action('/orders/{id}/cancel', 'already been cancelled or completed').verification).toBeUndefined();
  });
});

describe('verification plans: one reading of paths and updates for every rule', () => {
  const name = [{ name: 'name', in: 'path' as const, required: true, schema: { type: 'string' }, pointer: '/p' }];
  const disk = json({ type: 'object', properties: { size: { type: 'integer' } } });

  it('looks up creates and item reads by index: operations read grow linearly with the API', () => {
    /** Every `method` read during classify, for an API of n PUT/GET item pairs and n POST/GET create pairs. */
    const methodReads = (n: number): number => {
      let reads = 0;
      const counted = (o: Operation): Operation =>
        new Proxy(o, {
          get(target, prop, receiver) {
            if (prop === 'method') reads += 1;
            return Reflect.get(target, prop, receiver);
          },
        });
      const ops: Operation[] = [];
      for (let i = 0; i < n; i += 1) {
        ops.push(
          http('put', `/disks${i}/{name}`, { parameters: name, requestBody: disk, summary: 'Submits a disk' }),
          http('get', `/disks${i}/{name}`, { parameters: name }),
        );
        ops.push(
          http('post', `/zones${i}`, {
            requestBody: json({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }),
          }),
          http('get', `/zones${i}/{name}`, { parameters: name }),
        );
      }
      const [first, ...others] = ops.map(counted);
      classifyOne(first!, { others });
      return reads;
    };
    const small = methodReads(150);
    const large = methodReads(300);
    // Linear: twice the operations, about twice the reads (the scans per PUT and per POST made it four times).
    expect(large / small).toBeLessThan(2.5);
  });

  it('one update test: a PUT that says it replaces (or edits, patches) what is there gets no natural-key plan', () => {
    const put = (summary: string) =>
      classifyOne(http('put', '/disks/{name}', { parameters: name, summary, requestBody: disk }), {
        others: [http('get', '/disks/{name}', { parameters: name })],
      }).entry.verification;
    expect(put('Submits a disk')).toMatchObject({ shape: 'natural-key', read: { operation: 'GET /disks/{name}' } });
    // The refused-duplicate rule read these as updates already; the PUT rule did not, and found a plan.
    expect(put('Submits a disk, replacing the one already there')).toBeUndefined();
    expect(put('Submits a disk or edits the one there')).toBeUndefined();
    expect(put('Submits a disk or patches the one there')).toBeUndefined();
  });

  it('one update test: a create that also updates (said past the summary start) is no refused-duplicate plan', () => {
    const post = (summary: string, description?: string) =>
      classifyOne(
        http('post', '/things', {
          summary,
          ...(description === undefined ? {} : { description }),
          requestBody: json({ type: 'object', properties: { title: { type: 'string' } } }),
          responses: [
            {
              status: '409',
              description: 'A thing with this title already exists',
              content: [],
              headers: [],
              pointer: '/r',
            },
          ],
        }),
      ).entry.verification;
    expect(post('Create a thing')).toEqual({ shape: 'refused-duplicate', statuses: [409] });
    // The PUT rule read these as updates already; the refused-duplicate rule looked only at the summary's start.
    expect(post('Create or update a thing')).toBeUndefined();
    expect(post('Create a thing', 'Creates the thing, or updates the one with this title.')).toBeUndefined();
  });

  it('a format suffix (`.json`) is dropped from every path the rules compare, not only the PUT rule', () => {
    const body = json({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } });
    // natural-key from a POST: `/admin/zones.json` creates what `/admin/zones/{name}.json` reads.
    const created = classifyOne(http('post', '/admin/zones.json', { requestBody: body }), {
      others: [http('get', '/admin/zones/{name}.json', { parameters: name })],
    }).entry.verification;
    expect(created).toMatchObject({ shape: 'natural-key', read: { operation: 'GET /admin/zones/{name}.json' } });
    // natural-key from a PUT: `/disks/{name}.json` is the item `/disks/{name}` reads, and a create of `/disks.json` makes it an update.
    const put = http('put', '/disks/{name}.json', { parameters: name, requestBody: disk, summary: 'Submits a disk' });
    const get = http('get', '/disks/{name}', { parameters: name });
    expect(classifyOne(put, { others: [get] }).entry.verification).toMatchObject({ shape: 'natural-key' });
    const withCreate = classifyOne(put, { others: [get, http('post', '/disks.json', { requestBody: body })] });
    expect(withCreate.entry.verification).toBeUndefined();
  });
});
