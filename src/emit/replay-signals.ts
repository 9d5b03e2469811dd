/**
 * What marks a native-key replay in one operation's answer, decided once at generate time and written into the
 * client's description and the tool binding (runtime client/replay.ts reads it). Two kinds of evidence:
 *
 * - a replay header: the one the spec declares on a 2xx response (`Idempotent-Replayed`, `X-Idempotency-Replayed`…)
 *   or the one the provider documents (Stripe). When there is one, its absence is the API's answer, and no
 *   timestamp is read.
 * - a creation time: only for an operation that creates something (a POST whose path ends in a collection, not
 *   in an id or an action such as `/capture`), whose 2xx JSON answer has a top-level creation field. An update or
 *   an action returns a resource created long before the request, so its timestamp proves nothing.
 */
import type { PlanEntry } from '../classify/types.js';
import { isActionSegment } from '../classify/method-semantics.js';
import { providerReplayHeader } from '../classify/providers.js';
import type { HttpOperation } from '../ir/types.js';
import { derefSchema, isObject } from '../json-pointer/refs.js';
import { REPLAY_HEADERS, type ReplaySignals } from '@idemgen/runtime/internal/client/replay.js';

/** A declared response header that marks replays. */
const REPLAY_HEADER = /^(x-)?idempoten(t|cy)[-_]?replay(ed)?$/i;

/** Creation-time field names, in the order they are preferred. */
const CREATED_FIELDS = [
  'created_at',
  'createdAt',
  'created',
  'create_time',
  'createTime',
  'creation_time',
  'creationTime',
  'created_on',
  'createdOn',
  'date_created',
  'dateCreated',
];

const PARAM = /\{[^}]+\}/;

/** A POST to a collection: the last segment is neither an id template nor an action. */
function creates(op: HttpOperation): boolean {
  if (op.method !== 'post') return false;
  const last = op.path
    .split('/')
    .filter((s) => s !== '')
    .at(-1);
  return last !== undefined && !PARAM.test(last) && !isActionSegment(last);
}

/** The top-level properties of a schema, through `$ref` and `allOf` (one level each). */
function propertiesOf(root: unknown, schema: unknown): Record<string, unknown> {
  const s = derefSchema(root, schema);
  if (!isObject(s)) return {};
  const own = isObject(s.properties) ? s.properties : {};
  const parts = Array.isArray(s.allOf) ? s.allOf.map((p) => derefSchema(root, p)) : [];
  const merged: Record<string, unknown> = {};
  for (const p of parts) if (isObject(p) && isObject(p.properties)) Object.assign(merged, p.properties);
  return { ...merged, ...own };
}

function formatOf(root: unknown, schema: unknown): NonNullable<ReplaySignals['created']>['format'] | undefined {
  const s = derefSchema(root, schema);
  if (!isObject(s)) return undefined;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (types.includes('string') && s.format === 'date-time') return 'date-time';
  if (types.includes('integer') || types.includes('number')) {
    const text = `${typeof s.description === 'string' ? s.description : ''} ${typeof s.format === 'string' ? s.format : ''}`;
    if (/millisecond|\bms\b/i.test(text)) return 'unix-ms';
    return 'unix-seconds';
  }
  return undefined;
}

function createdField(op: HttpOperation, root: unknown): ReplaySignals['created'] {
  for (const r of op.responses) {
    if (!/^2(\d\d|XX)$/i.test(r.status)) continue;
    const json = r.content.find((c) => /json/i.test(c.mediaType));
    if (json?.schema === undefined) continue;
    const props = propertiesOf(root, json.schema);
    for (const field of CREATED_FIELDS) {
      if (!Object.hasOwn(props, field)) continue;
      const format = formatOf(root, props[field]);
      if (format !== undefined) return { field, format };
    }
  }
  return undefined;
}

/** The replay signals of a native-key entry; `undefined` when only the vendors' usual headers apply. */
export function replaySignals(entry: PlanEntry, op: HttpOperation, root: unknown): ReplaySignals | undefined {
  if (entry.mechanism !== 'native-key') return undefined;
  const declared = op.responses
    .filter((r) => /^2/.test(r.status))
    .flatMap((r) => r.headers)
    .find((h) => REPLAY_HEADER.test(h));
  const header = declared ?? providerReplayHeader(op.servers);
  // The runtime reads the vendors' usual headers on every native-key answer: only another name is written.
  if (header !== undefined) return REPLAY_HEADERS.includes(header.toLowerCase()) ? undefined : { header };
  if (!creates(op)) return undefined;
  const created = createdField(op, root);
  return created === undefined ? undefined : { created };
}
