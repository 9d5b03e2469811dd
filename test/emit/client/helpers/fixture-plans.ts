/** Plans for the client fixtures: one operation per mechanism, set explicitly so goldens test the emitter alone. */
import { resolve } from 'node:path';
import type { ApiPlan } from '../../../../src/classify/types.js';
import { planFor, type EntryOverride } from '../../../helpers/plan.js';
import { loadApis } from './spec-plan.js';

const FIXTURE_DIR = resolve(import.meta.dirname, '../../../fixtures/client');
const FIXTURES = ['payments.openapi.yaml', 'shapes.yaml', 'legacy.json'];

const why = (rule: string, detail: string) => [{ rule, detail }];

const OVERRIDES: Record<string, EntryOverride> = {
  'POST /charges': {
    class: 'native-key',
    mechanism: 'native-key',
    carrier: { in: 'header', name: 'Idempotency-Key', path: ['Idempotency-Key'], maxLength: 255, required: true },
    keyStrategy: 'caller',
    ttlSeconds: 86400,
    reasons: why('native-key/header-parameter', 'declares header parameter Idempotency-Key'),
  },
  'POST /transfers': {
    class: 'native-key',
    mechanism: 'native-key',
    carrier: { in: 'body', name: 'idempotency_key', path: ['idempotency_key'] },
    keyStrategy: 'intent',
    ttlSeconds: 86400,
    reasons: why('native-key/body-field', 'request body has property idempotency_key'),
  },
  'POST /refunds': {
    class: 'native-key',
    mechanism: 'native-key',
    carrier: { in: 'header', name: 'Idempotency-Key', path: ['Idempotency-Key'], maxLength: 255 },
    keyStrategy: null,
    ttlSeconds: 86400,
    reasons: why('native-key/provider-registry', 'api.example.test accepts Idempotency-Key on every POST'),
  },
  'POST /ledger/batches': {
    class: 'owned-store',
    mechanism: 'dedup-table',
    keyStrategy: 'intent',
    reasons: why('owned/multi-step', 'owned path, multi-row write'),
  },
  'PUT /blobs/{digest}': {
    class: 'owned-store',
    mechanism: 'content-address',
    keyStrategy: 'content',
    ttlSeconds: 3600,
    reasons: why('owned/content-identity', 'PUT of a content-addressed path'),
  },
  'PUT /artifacts/{digest}': {
    class: 'owned-store',
    mechanism: 'content-address',
    keyStrategy: 'content',
    reasons: why('owned/content-identity', 'raw bytes under their content hash'),
  },
  'POST /messages': {
    class: 'owned-store',
    mechanism: 'unique-insert',
    keyStrategy: 'caller',
    reasons: why('owned/single-row', 'single-row create in an owned table'),
  },
  'POST /bookings': {
    class: 'compensatable',
    mechanism: 'saga',
    keyStrategy: 'intent',
    compensation: 'DELETE /bookings/{bookingId}',
    compensationAddress: [{ param: 'bookingId', in: 'response', name: 'id' }],
    reasons: why('compensatable/inverse', 'POST /bookings ↔ DELETE /bookings/{bookingId}'),
  },
};

export async function fixturePlans(): Promise<ApiPlan[]> {
  const { apis, errors } = await loadApis(FIXTURES, FIXTURE_DIR);
  if (errors.length > 0) throw new Error(errors.join('\n'));
  return apis.map((api) => planFor(api, OVERRIDES));
}
