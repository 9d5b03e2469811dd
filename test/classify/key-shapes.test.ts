/**
 * A native key wherever a real spec declares it. Each shape is an operation of our own fixtures
 * (test/fixtures/keys), loaded with the real loader (external `$ref`s bundled) and IR, classified with the
 * default config; each row asserts the class, the carrier's `in`, its full path and what else matters.
 */
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Plan, PlanEntry } from '../../src/classify/types.js';
import { loadApis } from '../emit/client/helpers/spec-plan.js';
import { classify } from '../../src/classify/index.js';
import { resolveConfig } from '../../src/config/types.js';

const DIR = resolve(import.meta.dirname, '../fixtures/keys');
let plan: Plan;
const entry = (key: string): PlanEntry => {
  const e = plan.apis.flatMap((a) => a.entries).find((x) => x.operation.key === key);
  if (!e) throw new Error(`no operation ${key}`);
  return e;
};
const findings = (code: string, key: string) =>
  plan.diagnostics.filter((d) => d.code === code && d.message.startsWith(key));

beforeAll(async () => {
  const { apis, errors } = await loadApis(['shapes.yaml', 'swagger.yaml'], DIR);
  expect(errors).toEqual([]);
  plan = classify(apis, resolveConfig());
});

interface Row {
  shape: string;
  key: string;
  in: 'header' | 'body' | 'form' | 'query';
  path: string[];
  required?: boolean;
  maxLength?: number;
}

const rows: Row[] = [
  {
    shape: 'top-level JSON field',
    key: 'POST /top-level',
    in: 'body',
    path: ['idempotency_key'],
    required: true,
    maxLength: 45,
  },
  { shape: 'local $ref body', key: 'POST /local-ref', in: 'body', path: ['idempotencyKey'], required: false },
  {
    shape: 'external $ref body (other file)',
    key: 'POST /external-ref',
    in: 'body',
    path: ['clientToken'],
    required: true,
    maxLength: 64,
  },
  {
    shape: 'allOf member via $ref',
    key: 'POST /all-of',
    in: 'body',
    path: ['idempotency_key'],
    required: true,
    maxLength: 45,
  },
  {
    shape: 'oneOf: key in every variant (smallest maxLength wins)',
    key: 'POST /one-of-all',
    in: 'body',
    path: ['idempotencyKey'],
    required: true,
    maxLength: 48,
  },
  {
    shape: 'oneOf: key in some variants',
    key: 'POST /one-of-some',
    in: 'body',
    path: ['idempotencyKey'],
    required: false,
    maxLength: 64,
  },
  {
    shape: 'anyOf: key at a different path per variant',
    key: 'POST /any-of-paths',
    in: 'body',
    path: ['idempotency_key'],
    required: false,
    maxLength: 40,
  },
  {
    shape: 'JSON:API data.attributes (application/vnd.api+json)',
    key: 'POST /jsonapi',
    in: 'body',
    path: ['data', 'attributes', 'idempotencyKey'],
    required: true,
    maxLength: 36,
  },
  {
    shape: 'JSON:API inside oneOf variants of data',
    key: 'POST /jsonapi-one-of',
    in: 'body',
    path: ['data', 'attributes', 'idempotencyKey'],
    required: true,
    maxLength: 64,
  },
  {
    shape: '{ request: { … } } envelope',
    key: 'POST /envelope',
    in: 'body',
    path: ['request', 'idempotency_key'],
    required: false,
  },
  { shape: 'application/hal+json', key: 'POST /hal', in: 'body', path: ['IdempotencyToken'], required: false },
  { shape: 'form-urlencoded field', key: 'POST /form', in: 'form', path: ['IdempotencyKey'], required: true },
  {
    shape: 'multipart field next to a file',
    key: 'POST /multipart',
    in: 'form',
    path: ['idempotency_key'],
    required: false,
  },
  {
    shape: 'key only in the second media type',
    key: 'POST /second-media',
    in: 'body',
    path: ['deduplication_id'],
    required: false,
  },
  {
    shape: 'lower-case header, optional',
    key: 'POST /header-lower',
    in: 'header',
    path: ['idempotency-key'],
    required: false,
  },
  {
    shape: 'upper-case header, required',
    key: 'POST /header-odd',
    in: 'header',
    path: ['IDEMPOTENCY-KEY'],
    required: true,
    maxLength: 80,
  },
  {
    shape: 'header via $ref to components/parameters',
    key: 'POST /header-ref',
    in: 'header',
    path: ['Idempotency-Key'],
    required: false,
    maxLength: 255,
  },
  {
    shape: 'header via $ref to an external file fragment',
    key: 'POST /header-external',
    in: 'header',
    path: ['X-Acme-Idempotency-Key'],
    required: true,
    maxLength: 50,
  },
  {
    shape: 'query parameter',
    key: 'POST /query-key',
    in: 'query',
    path: ['idempotency_key'],
    required: false,
    maxLength: 32,
  },
  {
    shape: 'header and query: header first',
    key: 'POST /header-and-query',
    in: 'header',
    path: ['Idempotency-Key'],
    required: false,
  },
  {
    shape: 'header and body field: header first',
    key: 'POST /header-and-body',
    in: 'header',
    path: ['X-Idempotency-Key'],
    required: false,
  },
  {
    shape: 'query parameter known by its description (GCP requestId)',
    key: 'POST /described-query',
    in: 'query',
    path: ['requestId'],
    required: false,
  },
  {
    shape: 'body field known by its description',
    key: 'POST /described-field',
    in: 'body',
    path: ['requestId'],
    required: false,
    maxLength: 36,
  },
  {
    shape: 'anyOf with a null alternative: the null branch is not a missing variant',
    key: 'POST /nullable-variant',
    in: 'body',
    path: ['payment', 'idempotencyKey'],
    required: false,
  },
  {
    shape: 'Swagger 2.0 formData parameter',
    key: 'POST /form-param',
    in: 'form',
    path: ['IdempotencyKey'],
    required: true,
  },
  {
    shape: 'Swagger 2.0 body parameter, envelope',
    key: 'POST /body-envelope',
    in: 'body',
    path: ['request', 'ClientToken'],
    required: false,
    maxLength: 64,
  },
];

describe('native key shapes (class, carrier in, full path)', () => {
  it.each(rows)('$shape: $key', (row) => {
    const e = entry(row.key);
    expect(e.class).toBe('native-key');
    expect(e.mechanism).toBe('native-key');
    expect(e.carrier?.in).toBe(row.in);
    expect(e.carrier?.path).toEqual(row.path);
    expect(e.carrier?.required).toBe(row.required);
    expect(e.carrier?.maxLength).toBe(row.maxLength);
  });

  it.each(['POST /error-object', 'POST /reported-token'])(
    'not a key: %s (an error object; a token reported after the fact)',
    (key) => {
      expect(entry(key).mechanism).not.toBe('native-key');
      expect(entry(key).carrier).toBeNull();
    },
  );

  it('a key in every variant at one path records no per-variant paths', () => {
    expect(entry('POST /nullable-variant').carrier?.variants).toBeUndefined();
    expect(findings('key_in_some_variants', 'POST /nullable-variant')).toEqual([]);
    expect(entry('POST /one-of-all').carrier?.variants).toBeUndefined();
    expect(entry('POST /jsonapi-one-of').carrier?.variants).toBeUndefined();
    expect(findings('key_in_some_variants', 'POST /one-of-all')).toEqual([]);
  });

  it('a key in some variants: carrier for those variants, and a warning naming the others', () => {
    const c = entry('POST /one-of-some').carrier!;
    expect(c.variants).toEqual([{ pointer: '/components/schemas/UsAccount', path: ['idempotencyKey'] }]);
    const [f] = findings('key_in_some_variants', 'POST /one-of-some');
    expect(f?.severity).toBe('warning');
    expect(f?.message).toContain('/components/schemas/Unkeyed');
  });

  it('a key at different paths per variant: one path per variant', () => {
    expect(entry('POST /any-of-paths').carrier?.variants).toEqual([
      {
        pointer: '/paths/~1any-of-paths/post/requestBody/content/application~1json/schema/anyOf/0',
        path: ['idempotency_key'],
      },
      {
        pointer: '/paths/~1any-of-paths/post/requestBody/content/application~1json/schema/anyOf/1',
        path: ['request', 'idempotency_key'],
      },
    ]);
  });

  it('more than one carrier: the header wins and an info finding says so', () => {
    for (const key of ['POST /header-and-query', 'POST /header-and-body']) {
      const [f] = findings('multiple_key_carriers', key);
      expect(f?.severity).toBe('info');
      expect(f?.message).toMatch(/header first/);
    }
    expect(findings('multiple_key_carriers', 'POST /header-and-query')[0]?.message).toContain(
      'header Idempotency-Key, query idempotency_key',
    );
    expect(findings('multiple_key_carriers', 'POST /top-level')).toEqual([]);
    expect(findings('multiple_key_carriers', 'POST /form-param')).toEqual([]);
  });

  it('prose-only idempotency: fail-closed stays, an info finding carries a ready-to-paste override', () => {
    const e = entry('POST /prose-only');
    expect(e.mechanism).toBe('fail-closed');
    const [f] = findings('prose_only_idempotency', 'POST /prose-only');
    expect(f?.severity).toBe('info');
    const pasted = JSON.parse(f!.hint!.slice(f!.hint!.indexOf('{'))) as { overrides: Record<string, unknown> };
    expect(pasted).toEqual({
      overrides: {
        'POST /prose-only': { mechanism: 'native-key', carrier: { in: 'header', name: 'Idempotency-Key' } },
      },
    });
    // Pasted into a config, the override makes it OP-1 with that header as carrier.
    const again = classify(
      plan.apis.map((a) => a.api),
      resolveConfig(pasted as never),
    )
      .apis.flatMap((a) => a.entries)
      .find((x) => x.operation.key === 'POST /prose-only')!;
    expect(again.carrier).toEqual({ in: 'header', name: 'Idempotency-Key', path: ['Idempotency-Key'] });
    expect(findings('prose_only_idempotency', 'POST /top-level')).toEqual([]);
  });
});
