/**
 * Step 2: do we own the store being written to? (docs/concepts.md#mechanisms; Step 2 tree:
 * content identity → OP-3, single-row insert → OP-4, otherwise → OP-2.)
 */
import picomatch from 'picomatch';
import { isObject } from '../json-pointer/refs.js';
import type { HttpOperation, Operation } from '../ir/types.js';
import { extension, reason, type ClassifyContext } from './context.js';
import { CONTENT_PARAMS } from './heuristics.js';
import { collectionBase, pathIndex } from './path-index.js';
import { hostOf } from './providers.js';
import type { Mechanism, Reason } from './types.js';

export interface OwnedResult {
  mechanism: Extract<Mechanism, 'dedup-table' | 'content-address' | 'unique-insert'>;
  reasons: Reason[];
}

function ownerExtension(op: Operation, ctx: ClassifyContext): boolean {
  const root = ctx.api.root;
  const docLevel = isObject(root) ? root['x-idempotency-owner'] : undefined;
  return (extension(op, 'x-idempotency-owner') ?? docLevel) === 'self';
}

/** Which configured `owned` entry (if any) claims this operation. */
function ownedBy(op: Operation, ctx: ClassifyContext): string | undefined {
  if (ownerExtension(op, ctx)) return 'x-idempotency-owner: self';
  if (op.kind !== 'http') return undefined;
  const o = ctx.config.owned;
  const hosts = op.servers.map(hostOf).filter((h): h is string => h !== undefined);
  const host = o.hosts?.find((g) => hosts.some((h) => picomatch.isMatch(h, g, { nocase: true, dot: true })));
  if (host !== undefined) return `config.owned.hosts ${host}`;
  const norm = (u: string): string => u.replace(/\/+$/, '');
  const server = o.servers?.find((s) =>
    op.servers.some((x) => norm(x) === norm(s) || norm(x).startsWith(`${norm(s)}/`)),
  );
  if (server !== undefined) return `config.owned.servers ${server}`;
  const path = o.paths?.find((g) => picomatch.isMatch(op.path, g, { dot: true }));
  if (path !== undefined) return `config.owned.paths ${path}`;
  const tag = o.tags?.find((t) => op.tags.includes(t));
  if (tag !== undefined) return `config.owned.tags ${tag}`;
  return undefined;
}

const BINARY_MEDIA = /^(application\/octet-stream|image\/|video\/|audio\/|application\/(zip|gzip|pdf|x-tar))/i;

function contentIdentity(op: HttpOperation): string | undefined {
  const pathParams = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  const addressed = pathParams.find((p) => CONTENT_PARAMS.some((c) => c.toLowerCase() === p.toLowerCase()));
  if (addressed !== undefined) return `the path is content-addressed by {${addressed}}`;
  if (op.method !== 'put') return undefined;
  const blob = op.requestBody?.content.find(
    (m) => BINARY_MEDIA.test(m.mediaType) || (isObject(m.schema) && m.schema.format === 'binary'),
  );
  return blob ? `PUT of a ${blob.mediaType} body (a blob whose identity is its content)` : undefined;
}

/**
 * A single-row create: POST answering 201, or POST to a collection (`/orders` next to
 * `/orders/{id}`) answering the created resource. `/orders/{id}/fulfil` is an action, not a create.
 */
function singleCreate(op: HttpOperation, ctx: ClassifyContext): string | undefined {
  if (op.method !== 'post') return undefined;
  const base = collectionBase(op.path);
  if (/\}$/.test(base)) return undefined;
  if (op.responses.some((r) => r.status === '201')) return `POST ${op.path} creates one resource (201)`;
  const isCollection = pathIndex(ctx.memo, ctx.byKey).hasItemBelow.has(base);
  const ok = op.responses.find((r) => /^2\d\d$/.test(r.status) && r.content.length > 0);
  return isCollection && ok
    ? `POST to the collection ${op.path} returns the created resource (${ok.status})`
    : undefined;
}

export function findOwnedStore(op: Operation, ctx: ClassifyContext): OwnedResult | undefined {
  const by = ownedBy(op, ctx);
  if (by === undefined) return undefined;
  const reasons = [reason('owned_store', `we own the store (${by})`, op.source.pointer)];
  if (op.kind === 'http') {
    const content = contentIdentity(op);
    if (content)
      return {
        mechanism: 'content-address',
        reasons: [...reasons, reason('owned_content_identity', content, op.source.pointer)],
      };
    const create = singleCreate(op, ctx);
    if (create)
      return {
        mechanism: 'unique-insert',
        reasons: [...reasons, reason('owned_single_insert', create, op.source.pointer)],
      };
  }
  return {
    mechanism: 'dedup-table',
    reasons: [
      ...reasons,
      reason(
        'owned_multi_step',
        'no content identity and not a single-row create: dedup table + transaction at the tool boundary',
        op.source.pointer,
      ),
    ],
  };
}
