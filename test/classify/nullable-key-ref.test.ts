/**
 * A key property that is only a reference to a schema named like a key (`IdempotencyKey`) is still found
 * when OpenAPI 3.0 makes it nullable: the IR rewrites `allOf: [$ref] + nullable` to `anyOf: [X, null]`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { classify } from '../../src/classify/index.js';
import { resolveConfig } from '../../src/config/types.js';
import { loadApis } from '../emit/client/helpers/spec-plan.js';

const spec = (nullable: boolean) => ({
  openapi: '3.0.3',
  info: { title: 'refs', version: '1' },
  paths: {
    '/transfers': {
      post: {
        operationId: 'createTransfer',
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  amount: { type: 'integer' },
                  token: {
                    allOf: [{ $ref: '#/components/schemas/IdempotencyKey' }],
                    ...(nullable ? { nullable: true } : {}),
                  },
                },
              },
            },
          },
        },
        responses: { '201': { description: 'created' } },
      },
    },
  },
  components: { schemas: { IdempotencyKey: { type: 'string', maxLength: 64 } } },
});

it.each([false, true])('finds the key by its schema ref (nullable: %s)', async (nullable) => {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-nullref-'));
  writeFileSync(join(dir, 'refs.json'), JSON.stringify(spec(nullable)));
  const { apis, errors } = await loadApis(['refs.json'], dir);
  expect(errors).toEqual([]);
  const [entry] = classify(apis, resolveConfig()).apis[0].entries.filter((e) => e.operation.key === 'POST /transfers');
  expect(entry.mechanism).toBe('native-key');
  expect(entry.carrier).toMatchObject({ in: 'body', path: ['token'], maxLength: 64 });
});
