/**
 * The evidence model for key carriers (issue 25): every header, query parameter and body/form field of a
 * write is a candidate, weighed by its name, its description, its schema and where it sits. The weights add
 * up to a verdict — `key` (the carrier of OP-1), `possible` (a `possible_key_carrier` finding with the
 * override to paste, never a silent guess) or `no` — and the signals that carried it are kept for the audit.
 *
 * Weights: a decisive signal is worth 3 (the threshold for `key`), a suggestive one 1.5 (the threshold for
 * `possible`), schema hints 0.5. A negation (the field names another thing, is response data, a filter, or
 * a tracing id) vetoes whatever else was said.
 */
import { isObject } from '../json-pointer/refs.js';
import { isKeyField, isKeyHeader, keyDescriptionPromise, type Heuristics } from './heuristics.js';
import { type ClassifyMemo, memoSlot } from './memo.js';

type Verdict = 'key' | 'possible' | 'no';

export interface Evidence {
  verdict: Verdict;
  /** Every signal that counted, in the order weighed (`name …`, `description "…"`, `schema …`, `veto …`). */
  signals: string[];
  /** A recognised standard carrier, when the name is one. */
  standard?: Standard;
  /** What decided a `key`: its name (or referenced schema), or what its description says. */
  decidedBy?: 'name' | 'description';
}

export interface Candidate {
  in: 'header' | 'query' | 'body' | 'form';
  name: string;
  /** The field's own description (a `$ref` sibling, an `allOf` member, or the target's). */
  description?: string;
  /** The field's schema after `$ref`s. */
  schema?: unknown;
  /** The schema as written (for the name of a referenced schema). */
  declared?: unknown;
  /** Body/form: objects above the field (0 at the body root). */
  depth?: number;
}

const KEY = 3;
const POSSIBLE = 1.5;

/** Standards with a first-class carrier. */
type Standard = 'oasis-repeatable-requests' | 'aws-client-token' | 'google-request-id';

/** OASIS Repeatable Requests 1.0: the client sends both headers; First-Sent is the first attempt's time (IMF-fixdate). */
export const OASIS_FIRST_SENT = 'Repeatability-First-Sent';

const AWS_TOKENS: ReadonlySet<string> = new Set([
  'clienttoken',
  'clientrequesttoken',
  'idempotencytoken',
  'creationtoken',
]);

const squash = (name: string): string => name.replace(/[-_.\s]/g, '').toLowerCase();

function standardOf(c: Candidate): Standard | undefined {
  const s = squash(c.name);
  if (c.in === 'header' && s === 'repeatabilityrequestid') return 'oasis-repeatable-requests';
  if ((c.in === 'body' || c.in === 'query' || c.in === 'form') && AWS_TOKENS.has(s)) return 'aws-client-token';
  if ((c.in === 'body' || c.in === 'query') && c.name === 'requestId') return 'google-request-id';
  return undefined;
}

/**
 * Names that suggest a per-request key without saying so (squashed: no separators, lower case): Telnyx
 * `command_id`, `client_order_id`, Google `requestId`, AWS `CreatorRequestId`. Exact names only: a name that
 * merely ends like one usually names another resource (`pullRequestId`, `SpotFleetRequestId`,
 * `consentRequestId`, Google's long-running `operationId`). Headers may carry a vendor prefix
 * (`X-Bunq-Client-Request-Id`).
 */
const SUGGESTIVE_NAMES: ReadonlySet<string> = new Set([
  'requestid',
  'requestuuid',
  'requesttoken',
  'requestkey',
  'commandid',
  'clientcommandid',
  'clientoperationid',
  'submissionid',
  'clientsubmissionid',
  'clientorderid',
  'clientreferenceid',
  'clienttransactionid',
  'creatorrequestid',
  'uniquerequesttoken',
  'retrytoken',
]);
const SUGGESTIVE_PATTERN = /^(?:dedup\w*|deduplication)(?:id|key|token|uuid)$/;
const SUGGESTIVE_HEADER = /^x[a-z0-9]*?(?:client)?requestid$/;

function isSuggestiveName(c: Candidate): boolean {
  const s = squash(c.name);
  return SUGGESTIVE_NAMES.has(s) || SUGGESTIVE_PATTERN.test(s) || (c.in === 'header' && SUGGESTIVE_HEADER.test(s));
}

/** Tracing and correlation ids (squashed names): the server logs them, it does not dedupe on them. */
const TRACING_HEADERS: ReadonlySet<string> = new Set([
  'xrequestid',
  'requestid',
  'clientrequestid',
  'returnclientrequestid',
  'xmsclientrequestid',
  'xmsrequestid',
  'xcorrelationid',
  'correlationid',
  'traceparent',
  'xb3traceid',
  'xamzntraceid',
]);
const TRACING_FIELDS: ReadonlySet<string> = new Set(['xrequestid', 'correlationid', 'traceid']);

function isTracingName(c: Candidate): boolean {
  return (c.in === 'header' ? TRACING_HEADERS : TRACING_FIELDS).has(squash(c.name));
}

/**
 * Statements that the server deduplicates on the field, beyond "idempotency key" wording
 * (heuristics.ts `keyDescriptionPromise`): de-duplication of requests, duplicates avoided or ignored,
 * processing at most once, the same value on retries, the earlier response returned.
 */
const DECISIVE: readonly [RegExp, string][] = [
  [
    /\b(?:used|use it|uses it|is used|this is used) (?:to|for) (?:de-?dup(?:e|licate)?|deduplicat\w*)\b/i,
    'used to de-duplicate',
  ],
  [
    /\bde-?dup(?:e|es|ed|licates?|lication)?\b[^.]{0,60}\b(?:requests?|calls?|commands?|submissions?|messages?|transactions?|retries|payments?|orders?|operations?)\b/i,
    'de-duplicates requests',
  ],
  [
    /\b(?:avoid|avoids|prevent|prevents|preventing|protects? against|safeguards? against)\b[^.]{0,40}\bduplicate(?:s\b|d? (?:requests?|calls?|commands?|submissions?|messages?|transactions?|payments?|orders?|charges?|operations?|transfers?|executions?|jobs?|creations?))/i,
    'prevents duplicates',
  ],
  [
    /\b(?:ignore|ignores|ignored|discard|discards|discarded|deduplicate|deduplicates)\b[^.]{0,60}\b(?:with|having|using|that (?:has|have|use|uses)|sharing|of) the same\b/i,
    'ignores repeats with the same value',
  ],
  [
    /\bnot (?:be )?(?:processed|executed|performed|applied|created|charged|sent|submitted)\b[^.]{0,20}\b(?:more than once|multiple times|twice)\b/i,
    'not processed more than once',
  ],
  [
    /\b(?:prevent\w*|avoid\w*|safeguard\w*|protect\w* against|ensur\w*|guarantee\w*)\b[^.]{0,80}\bsame\b[^.]{0,60}\b(?:more than once|multiple times|twice)\b/i,
    'the same request more than once',
  ],
  [
    /\b(?:processed|executed|performed|applied|created|charged) (?:at most |only )once (?:per|for each|for every|for a given)\b|\bonly the first\b[^.]{0,60}\b(?:will be|is|gets|are) (?:processed|executed|accepted)\b/i,
    'processed at most once',
  ],
  [
    /\bretr(?:y|ies|ying|ied)\b[^.]{0,80}\b(?:with |using |reuse |re-use |send )?the same (?:value|id|identifier|key|token|request id)\b/i,
    'retry with the same value',
  ],
  [
    /\bsame\b[^.]{0,40}\bon (?:every |each |all )?retr(?:y|ies)\b|\bre-?used (?:across|on|for|in) retr/i,
    'the same on retries',
  ],
  [
    /\b(?:response|result) (?:from|of) the (?:previous|original|first|earlier)\b[^.]{0,40}\breturned\b|\breturns? the (?:previous|original|cached|same|first) (?:response|result)\b/i,
    'the earlier response is returned',
  ],
];

/**
 * Statements about duplicates that do not say *requests* are deduplicated: decisive with a name that suggests a
 * request id (Telnyx `command_id`, Google `requestId`), else only `possible` (Zuora's `GatewayOrderId`: the
 * gateway declines a second order, it does not replay; YNAB's `import_id`).
 */
const NEEDS_NAME: ReadonlySet<string> = new Set(['prevents duplicates', 'the same request more than once']);

/** Suggestive statements: a duplicate is rejected (not replayed), or deduplication is mentioned in passing. */
const SUGGESTIVE: readonly [RegExp, string, number][] = [
  [
    /\b(?:error|rejected|refused|fail(?:s|ed)?)\b[^.]{0,60}\bsame\b[^.]{0,40}\b(?:again|reused|re-used|twice)\b|\bsame\b[^.]{0,40}\b(?:used again|reused|re-used)\b[^.]{0,40}\b(?:error|reject\w*|fail\w*)/i,
    'a reused value is rejected',
    1,
  ],
  [/\b(?:useful|used|helps?) for (?:de-?dup\w*|deduplicat\w*)\b/i, 'useful for deduplication', POSSIBLE],
  [/\bunique (?:per|for (?:each|every)) (?:request|call|submission|attempt)\b/i, 'unique per request', 1],
];

/**
 * Statements that the field is something else: another resource's id, a key reported after the fact, a
 * filter, read-only. They veto every other signal, the name too (Square's `idempotency_key` "identifying the
 * payment to be canceled" names an earlier request).
 */
const NEGATIONS: readonly [RegExp, string][] = [
  [
    /\bidentif(?:y|ies|ying) the (?!(?:unique )?(?:request|call|submission|attempt|operation|retry|command)\b)\w+(?: \w+)? to be\b/i,
    'names the resource acted on',
  ],
  [/\b(?:that|which) (?:was|were) used\b|\bpresent if\b/i, 'reports a key after the fact'],
  [/^\s*(?:\[output only\]|output only|read-?only)\b|\bread-?only\.?\s*$/i, 'read-only'],
  [/^\s*(?:filters?|filtered|filtering)\b(?:\s+\w+){0,3}\s+(?:by|on)\b|\bto filter (?:by|on)\b/i, 'a filter'],
];

/**
 * Statements that weigh against what the description says, but not against a key's name: the field names
 * the resource acted on ("The id of the request to approve"; not AWS "The client token of the application to
 * update"), or is response data ("returned by"; AWS copies "if NextToken was returned" onto DynamoDB's
 * ClientRequestToken).
 */
const WEAK_NEGATIONS: readonly [RegExp, string][] = [
  [
    /^(?![\s\S]*\b(?:idempoten|client token))[\s\S]*\b(?:id|identifier|key|token|reference)\b[^.]{0,30}\b(?:of|for) the \w+(?: \w+)? (?:to|being|you want to) (?:retrieve|fetch|get|cancel|delete|update|approve|reject|return|look up|modify|remove|refund|capture|void)\b/i,
    'names the resource acted on',
  ],
  [/\breturned (?:by|from|in)\b/i, 'response data'],
  [/^\s*(?:whether|if true|when true|set (?:this )?to true)\b/i, 'a flag'],
];

/**
 * The field identifies a resource rather than the request (DocuSign `transactionId`: "Used to identify an
 * envelope. … to ensure that an envelope is not sent multiple times"): what the description says of
 * duplicates is then only suggestive.
 */
const IDENTIFIES_RESOURCE =
  /^\s*(?:used to |this )?identif(?:y|ies) (?:an?|the) (?!(?:unique )?(?:request|call|submission|attempt|operation|retry|command)\b)\w+/i;

const TRACING_WORDS =
  /\b(?:track(?:ing|ed)?|tracing|trace|correlat\w*|troubleshoot\w*|debugg?ing|logging|diagnos\w*)\b/i;

/** A string (or string-or-null) schema, or one that says nothing of its type. */
function isStringLike(schema: unknown): boolean {
  if (!isObject(schema)) return true;
  const t = schema.type;
  const types = Array.isArray(t) ? t.filter((x) => x !== 'null') : t === undefined ? [] : [t];
  return types.every((x) => x === 'string');
}

const quote = (text: string): string => {
  const flat = text
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > 100 ? `${flat.slice(0, 97)}…` : flat;
};

interface DescriptionReading {
  score: number;
  signals: string[];
  veto?: string;
  /** WEAK_NEGATIONS: vetoes what the description says, not a key's name. */
  against?: string;
  tracing: boolean;
  /** IDENTIFIES_RESOURCE: a decisive statement only counts as suggestive. */
  resource?: string;
  /** The statement is about duplicates of a thing, not of a request: decisive only with a suggestive name. */
  needsName?: boolean;
}

/** Description → its reading: the same text recurs across thousands of Graph bodies (one map per run). */
const READINGS = memoSlot('description readings', () => new Map<string, DescriptionReading>());

/** The sentence around `index` (sentences end at `.`, `!` or `?` before white space). */
function sentenceOf(text: string, index: number): string {
  let start = 0;
  for (const m of text.slice(0, index).matchAll(/[.!?]\s+/g)) start = m.index + m[0].length;
  const end = /[.!?](?:\s|$)/.exec(text.slice(index));
  return text.slice(start, end ? index + end.index + 1 : undefined);
}

function readDescription(memo: ClassifyMemo, text: string): DescriptionReading {
  const readings = memo.get(READINGS);
  const known = readings.get(text);
  if (known) return known;
  const out: DescriptionReading = { score: 0, signals: [], tracing: TRACING_WORDS.test(text) };
  for (const [re, why] of NEGATIONS) {
    const m = re.exec(text);
    if (m) {
      out.veto = `${why}: "${quote(sentenceOf(text, m.index))}"`;
      break;
    }
  }
  for (const [re, why] of WEAK_NEGATIONS) {
    const m = re.exec(text);
    if (m) {
      out.against = `${why}: "${quote(sentenceOf(text, m.index))}"`;
      break;
    }
  }
  const promise = keyDescriptionPromise(text);
  if (promise !== undefined) {
    out.score = KEY;
    out.signals.push(`description says it is the key: "${quote(promise)}"`);
  } else {
    for (const [re, why] of DECISIVE) {
      const m = re.exec(text);
      if (!m) continue;
      out.score = KEY;
      out.signals.push(`description (${why}): "${quote(sentenceOf(text, m.index))}"`);
      out.needsName = NEEDS_NAME.has(why);
      break;
    }
  }
  const resource = IDENTIFIES_RESOURCE.exec(text);
  if (resource && out.score >= KEY) {
    out.score = POSSIBLE;
    out.signals.push(`but it identifies a resource: "${quote(sentenceOf(text, resource.index))}"`);
  }
  if (out.score < POSSIBLE) {
    for (const [re, why, weight] of SUGGESTIVE) {
      const m = re.exec(text);
      if (!m) continue;
      out.score = weight;
      out.signals.push(`description (${why}): "${quote(sentenceOf(text, m.index))}"`);
      break;
    }
  }
  readings.set(text, out);
  return out;
}

/** The name of the schema a property references (`#/components/schemas/IdempotencyToken`). */
const KEY_SCHEMA_REF = /\/[A-Za-z0-9_]*idempoten(ce|cy)[A-Za-z0-9_]*(key|token)$/i;

function refOf(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  if (typeof schema.$ref === 'string') return schema.$ref;
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1) return refOf(schema.allOf[0]);
  if (Array.isArray(schema.anyOf) && schema.anyOf.length === 2) {
    const other = schema.anyOf.filter((x) => !(isObject(x) && x.type === 'null'));
    if (other.length === 1) return refOf(other[0]);
  }
  return undefined;
}

/**
 * Business values that some vendor also calls an idempotency token: Amazon Chime `ExternalUserId` ("An
 * idempotency token. Links the attendee to an identity"). Filling it with a generated key would replace the
 * user's identity.
 */
const NOT_KEY_FIELDS: ReadonlySet<string> = new Set(['ExternalUserId']);

function nameSignal(c: Candidate, h: Heuristics): { score: number; signal?: string } {
  const standard = standardOf(c);
  if (standard === 'oasis-repeatable-requests')
    return { score: KEY, signal: `name ${c.name} (OASIS Repeatable Requests; sent with ${OASIS_FIRST_SENT})` };
  if (c.in === 'header' ? isKeyHeader(c.name, h) : isKeyField(c.name, h))
    return {
      score: KEY,
      signal: `name ${c.name}${standard === 'aws-client-token' ? ' (AWS client token)' : ' (an idempotency key name)'}`,
    };
  const ref = refOf(c.declared);
  if (ref !== undefined && KEY_SCHEMA_REF.test(ref)) return { score: KEY, signal: `schema ${ref}` };
  if (isSuggestiveName(c))
    return {
      score: POSSIBLE,
      signal: `name ${c.name}${standard === 'google-request-id' ? ' (Google requestId)' : ' (names a client-chosen request id)'}`,
    };
  return { score: 0 };
}

function schemaSignals(c: Candidate): { score: number; signals: string[] } {
  const s = c.schema;
  const signals: string[] = [];
  let score = 0;
  if (isObject(s) && (s.format === 'uuid' || s.format === 'guid')) {
    score += 0.5;
    signals.push(`schema format ${String(s.format)}`);
  }
  if (isObject(s) && s.writeOnly === true) {
    score += 0.5;
    signals.push('schema writeOnly');
  }
  return { score, signals };
}

/** Weigh one candidate. */
export function weighCandidate(c: Candidate, h: Heuristics, memo: ClassifyMemo): Evidence {
  const standard = standardOf(c);
  const withStandard = (e: Evidence): Evidence => (standard && e.verdict !== 'no' ? { ...e, standard } : e);
  if (NOT_KEY_FIELDS.has(c.name)) return { verdict: 'no', signals: [`veto: ${c.name} is a business value`] };
  if (isObject(c.schema) && c.schema.readOnly === true) return { verdict: 'no', signals: ['veto: readOnly'] };
  const name = nameSignal(c, h);
  const text = typeof c.description === 'string' ? c.description : '';
  const reading = text !== '' && isStringLike(c.schema) ? readDescription(memo, text) : undefined;
  if (reading?.veto) return { verdict: 'no', signals: [`veto (${reading.veto})`] };
  const signals: string[] = [];
  if (name.signal) signals.push(name.signal);
  if (name.score >= KEY) return withStandard({ verdict: 'key', signals, decidedBy: 'name' });
  if (reading?.against) return { verdict: 'no', signals: [...signals, `veto (${reading.against})`] };
  // A value picked from a list, or a date, is not unique per request whatever the prose around it says.
  if (isObject(c.schema) && (Array.isArray(c.schema.enum) || /^date/.test(String(c.schema.format ?? ''))))
    return { verdict: 'no', signals: [...signals, 'veto: an enum or a date'] };
  if (!isStringLike(c.schema)) return { verdict: 'no', signals };
  // A tracing header is never a key unless its own description says the server dedupes on it.
  const tracing = isTracingName(c) || reading?.tracing === true;
  if (reading && reading.score > 0) signals.push(...reading.signals);
  if (reading && reading.score >= KEY && !(reading.needsName && name.score === 0))
    return withStandard({ verdict: 'key', signals, decidedBy: 'description' });
  if (tracing) return { verdict: 'no', signals: [...signals, 'veto: a tracing or correlation id'] };
  const said = name.score + Math.min(reading?.score ?? 0, reading?.needsName && name.score === 0 ? POSSIBLE : KEY);
  if (said >= KEY && name.score > 0) return withStandard({ verdict: 'key', signals, decidedBy: 'description' });
  if (said === 0) return { verdict: 'no', signals };
  const schema = schemaSignals(c);
  signals.push(...schema.signals);
  // Position: two objects down a field belongs to a sub-resource more often than to the request.
  const deep = (c.depth ?? 0) >= 2 ? 0.5 : 0;
  if (deep > 0) signals.push(`position: ${c.depth} objects below the body root`);
  return said + schema.score - deep >= POSSIBLE
    ? withStandard({ verdict: 'possible', signals })
    : { verdict: 'no', signals };
}

/** The description a property carries: its own, an `allOf` member's (AWS), or its target's. */
export function descriptionOf(declared: unknown, resolved: unknown): string | undefined {
  for (const s of [declared, resolved]) {
    if (!isObject(s)) continue;
    if (typeof s.description === 'string') return s.description;
    if (Array.isArray(s.allOf))
      for (const m of s.allOf) if (isObject(m) && typeof m.description === 'string') return m.description;
  }
  return undefined;
}
