/**
 * The evidence model for key carriers: every header, query parameter and body/form field of a write is a
 * candidate, weighed by what its own description says first, then its name, its schema and where it sits.
 * The weights add up to a verdict — `key` (the carrier of OP-1), `possible` (a `possible_key_carrier` finding
 * with the override to paste, never a silent guess) or `no` — and the signals that carried it are kept for
 * the audit.
 *
 * Weights: a decisive signal is worth 3 (the threshold for `key`), a suggestive one 1.5 (the threshold for
 * `possible`), schema hints 0.5. A description that says the field is the key, or that the server
 * de-duplicates requests on it, decides at any depth whatever the field is called; the name and the schema
 * only refine (a number, an enum or an array item caps it at `possible`). A negation (the field names
 * another request or thing, is a receiver's id, an upserting id, a switch, response data, a filter, a
 * deprecated or unsupported key, or a tracing id) vetoes whatever else was said.
 *
 * `readKeyDescription` is the reading of one description, exported for every step that needs to know what
 * a field says of de-duplication (key carriers, possible carriers, verification plans).
 */
import { isObject } from '../json-pointer/refs.js';
import { compileOnFirstUse } from '../regexps.js';
import { type Heuristics, isKeyField, isKeyHeader, KEY_PROMISE_PATTERNS, keyDescriptionPromise } from './heuristics.js';
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
  /** Body/form: the field sits in an array's items (each item would need its own key). */
  inItems?: boolean;
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
  'callerreference',
  'updaterrequestid',
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
 * Statements that the field is the key or that the server deduplicates on it, beyond "idempotency key"
 * wording (heuristics.ts `keyDescriptionPromise`): it serves as the key, it is there for idempotency,
 * requests are de-duplicated or the repeat ignored, processing happens at most once, a retry with the same
 * value is safe, the earlier response or resource is returned.
 */
export const DECISIVE: readonly [RegExp, string][] = [
  [
    /\b(?:serves?|serving|acts?|acting|functions?|works?|will serve|is used|be used|used) as (?:an?|the) (?:[\w-]+ )?idempoten(?:cy|ce|t)[ _-]?(?:key|token|identifier|id)\b/i,
    'serves as the idempotency key',
  ],
  [
    /(?:^|[.!?:]\s+)(?:optional[.:]?\s+)?idempotent (?:request |client )?(?:uuid|guid|id|identifier|key|token)\b/i,
    'an idempotent request id',
  ],
  [
    /\b(?:for|to support|to enable|to achieve|to provide|to ensure|ensur\w*|guarantee\w*|supports?|crucial for|needed for|required for|helps? (?:to )?ensure)\b[^.]{0,40}?\bidempoten(?:cy|ce|t (?:publishing|processing|creation|deletion|updates?|behaviou?r|requests?|operations?|submissions?|retries|handling|execution))\b/i,
    'for idempotency',
  ],
  [
    /\bidempotent (?:only )?(?:if|when)\b[^.]{0,60}\b(?:provided|specified|set|given|supplied|present)\b/i,
    'idempotent when the field is set',
  ],
  [
    /\b(?:used|use it|uses it|is used|this is used) (?:to|for) (?:de-?dup(?:e|licate)?|de-?duplicat\w*)\b/i,
    'used to de-duplicate',
  ],
  [
    /\b(?:de-?dup(?:e|es|ed|licates?|lication)?|de-?duplicat\w*)\b[^.]{0,60}\b(?:requests?|calls?|commands?|submissions?|messages?|transactions?|retries|payments?|orders?|operations?|insert\w*)\b/i,
    'de-duplicates requests',
  ],
  [/\bdetect\w*\b[^.]{0,30}\bduplicat\w* (?:requests?|calls?|submissions?)\b/i, 'detects duplicate requests'],
  [
    /\b(?:second|later|subsequent|duplicate|repeated) (?:request|call|submission)s? (?:is|are|will be|gets?) (?:ignored|discarded|dropped)\b|\bthe request (?:is|will be) ignored\b/i,
    'the repeat is ignored',
  ],
  [
    /\bignor\w*\b[^.]{0,20}\b(?:subsequent|later|repeated|duplicate|second)\b[^.]{0,20}\b(?:requests?|calls?|commands?)\b|\bignore the request if it(?:'s| has| is) (?:already )?(?:been )?complet/i,
    'the repeat is ignored',
  ],
  [
    /\b(?:avoid|avoids|prevent|prevents|preventing|protects? against|safeguards? against)\b[^.]{0,60}\bduplicate\w*\b[^.]{0,60}\b(?:retr(?:y|ies|ying|ied)|when retrying|failures and retries)\b/i,
    'prevents duplicates on retries',
  ],
  [
    /\bretr(?:y|ied|ying|ies)\b[^.]{0,60}\bwithout (?:the )?(?:risk|danger|chance|possibility) of\b|\bretry the (?:call|request)\b[^.]{0,20}\bwithout (?:creating|running|executing|performing|extending|granting|charging|sending|duplicating)\b/i,
    'retries without running it twice',
  ],
  [/\b(?:can'?t|cannot|can not|won'?t|will not) be replayed\b/i, 'the request cannot be replayed'],
  [
    /\ballows? (?:the )?(?:requests?|calls?|it) to be (?:securely |safely )?retried\b|\b(?:started|created|run|sent|submitted|executed) (?:twice |again )?(?:due to|because of|by) retries\b/i,
    'safe to retry',
  ],
  [
    /\b(?:id|identifier|key|token)\b[^.]{0,20}\bfor (?:best-effort )?(?:de-?dup\w*|de-?duplicat\w*)\b/i,
    'an id for de-duplication',
  ],
  [
    /\bprevent\w*\b[^.]{0,30}\b(?:accidentally |unintentionally )?resubmit\w*\b|\baccidentally resubmit\w*\b/i,
    'prevents a resubmission',
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
    /\b(?:requests?|calls?|jobs?|operations?|actions?)\b[^.]{0,10}\b(?:don'?t|do not|doesn'?t|does not|won'?t|will not|never) (?:run|execute|happen|occur|complete|get processed|be processed|be executed|be performed)\b[^.]{0,20}\b(?:multiple times|more than once|twice)\b/i,
    'not processed more than once',
  ],
  [
    /\b(?:prevent\w*|avoid\w*|safeguard\w*|protect\w* against|ensur\w*|guarantee\w*)\b[^.]{0,80}\bsame\b[^.]{0,60}\b(?:more than once|multiple times|twice)\b/i,
    'the same request more than once',
  ],
  [
    /\b(?:processed|executed|performed|applied|created|charged) (?:at most |only )once (?:per|for each|for every|for a given)\b|\bonly the first\b[^.]{0,60}\b(?:will be|is|gets|are) (?:processed|executed|accepted)\b|\bonly one (?:of them )?(?:will be|is|gets) (?:considered|processed|executed|accepted|applied)\b/i,
    'processed at most once',
  ],
  [
    /\bretr(?:y|ies|ying|ied)\b[^.]{0,80}\b(?:with |using |reuse |re-use |send )?the same (?:value|id|identifier|key|token|request id)\b/i,
    'retry with the same value',
  ],
  [
    /\bsame\b[^.]{0,40}\bon (?:every |each |all )?retr(?:y|ies)\b|\bre-?used (?:across|on|for|in) retr|\b(?:handled|processed|applied) (?:correctly |only once )?across retries\b/i,
    'the same on retries',
  ],
  [
    /\b(?:response|result) (?:from|of) the (?:previous|original|first|earlier)\b[^.]{0,40}\breturned\b|\breturns? the (?:previous|original|cached|same|first) (?:response|result)\b/i,
    'the earlier response is returned',
  ],
  [
    /\b(?:existing|same) (?:request )?(?:id|key|token)\b[^.]{0,30}\breturns? the \w+ (?:created|made)\b/i,
    'the earlier result is returned',
  ],
];

/**
 * A word every DECISIVE statement contains, however it is phrased: idempoten-, dup- (dedup, de-dup, duplicate),
 * ignor-, discard, dropped, retry/retried/retries/retrying, reused/re-used, replay, resubmit, once, twice,
 * "multiple times", same, only, return. A description without one cannot match the table, so its 25 patterns
 * are not run (85 % of Stripe's and GitHub's descriptions; the table was most of what reading one cost).
 * Adding a pattern to DECISIVE means adding its word here: test/classify/key-description-gate.test.ts checks
 * each pattern against its own examples, the fixtures' and the bench specs' descriptions.
 */
export const DECISIVE_WORDS =
  /idempoten|dup|ignor|discard|dropped|retr(?:y|ied|ies|ying)|re-?used|replay|resubmit|once|twice|multiple times|same|only|return/i;

/**
 * Words one of which every statement that gives a description a score needs: DECISIVE_WORDS (which also holds
 * the words of heuristics.ts's promises: "idempoten", "ignor", "only"), and "unique" for the suggestive
 * 'unique per request'; the other suggestive statements need "same", "dup" or "idempoten". A description
 * without one scores 0 whatever else it says (test/classify/key-description-gate.test.ts).
 */
const SCORING_WORDS = new RegExp(`${DECISIVE_WORDS.source}|unique`, 'i');

/** Description → whether its plain text holds a SCORING_WORDS word (one map per run). */
const MAY_SCORE = memoSlot('descriptions that may score', () => new Map<string, boolean>());

/**
 * Whether `readKeyDescription` could give this description a score above 0. When it cannot, a candidate
 * whose name says nothing is `no` without the reading: its negations only ever veto a name or a score.
 */
export function mayScore(description: string, memo?: ClassifyMemo): boolean {
  const known = memo?.get(MAY_SCORE).get(description);
  if (known !== undefined) return known;
  const may = SCORING_WORDS.test(plain(description));
  memo?.get(MAY_SCORE).set(description, may);
  return may;
}

/**
 * Statements about duplicates that do not say *requests* are deduplicated: decisive with a name that suggests a
 * request id (Telnyx `command_id`, Google `requestId`), else only `possible` (Zuora's `GatewayOrderId`: the
 * gateway declines a second order, it does not replay; YNAB's `import_id`).
 */
const NEEDS_NAME: ReadonlySet<string> = new Set(['prevents duplicates', 'the same request more than once']);

/**
 * Suggestive statements: a duplicate is rejected (not replayed), deduplication or idempotency is mentioned in
 * passing, the value is unique per request. `alone`: the statement makes a candidate but does not add up
 * with a suggestive name to a key (a request id "unique for each request" is as often a tracing id).
 */
const SUGGESTIVE: readonly [RegExp, string, number, boolean][] = [
  [
    /\b(?:error|rejected|refused|fail(?:s|ed)?)\b[^.]{0,60}\bsame\b[^.]{0,40}\b(?:again|reused|re-used|twice)\b|\bsame\b[^.]{0,40}\b(?:used again|reused|re-used)\b[^.]{0,40}\b(?:error|reject\w*|fail\w*)/i,
    'a reused value is rejected',
    1,
    false,
  ],
  [/\b(?:useful|used|helps?) for (?:de-?dup\w*|de-?duplicat\w*)\b/i, 'useful for deduplication', POSSIBLE, false],
  [/\bidempoten(?:cy|ce|t)\b/i, 'mentions idempotency', POSSIBLE, false],
  [
    /\bunique (?:per|for (?:each|every)) (?:request|call|submission|attempt)\b|\bunique (?:\w+ ){0,2}(?:that|which) identifies (?:this|the|each) (?:\w+ )?request\b|\buniquely identif(?:y|ies) (?:this|the|each) (?:\w+ )?request\b/i,
    'unique per request',
    POSSIBLE,
    true,
  ],
];

/** "This operation is idempotent": said of the method, not of a key (not even a mention of one). */
const METHOD_IDEMPOTENT =
  /\b(?:operation|action|call|method|api|delete|deletion|task|tasks|it|this|name) (?:is|are|should be|must be|to be|will still succeed to be) idempotent\b|\bbe idempotent\b|\bnon-idempotent\b/i;

/**
 * Statements that the field is something else: another request's key or another resource's id, a key
 * reported after the fact, a receiver's id, an upserting id, a filter, read-only, a key that is deprecated or
 * not honoured. They veto every other signal, the name too (Square's `idempotency_key` "identifying the
 * payment to be canceled" names an earlier request).
 */
const NEGATIONS: readonly [RegExp, string][] = [
  [
    /\bidentif(?:y|ies|ying) the (?!(?:unique )?(?:request|call|submission|attempt|operation|retry|command)\b)\w+(?: \w+)? to be\b/i,
    'names the resource acted on',
  ],
  [
    /\b(?:key|token|id|identifier)\b[^.]{0,40}\b(?:of|from|used (?:in|by|for|with)|sent with|supplied (?:in|with)|given (?:in|to)) (?:the|an?) (?:original |earlier |previous |prior |first |initial )?(?:request|payment|transaction|order|charge|call|operation|transfer|submission)s?\b[^.]{0,30}\b(?:to|you want to|that you want to|which you want to) (?:cancel|void|reverse|refund|look up|retrieve|fetch|get|check|find|query|undo|replay)\b/i,
    'names another request',
  ],
  [
    /\b(?:cancel|void|reverse|look up|retrieve|fetch|find)s? (?:the|an?) (?:\w+ )?(?:request|payment|transaction|order|charge|call|operation|transfer)s? (?:that was |which was )?(?:created|made|sent|submitted|started) with (?:this|the|that|its) (?:idempotency )?(?:key|token)\b/i,
    'names another request',
  ],
  [
    /\b(?:webhook|notification|callback|event delivery|delivery|delivered event)s?\b[^.]{0,80}\b(?:can|may|should|could) be used\b[^.]{0,30}\b(?:idempoten\w*|de-?dup\w*|de-?duplicat\w*|detect\w* duplicate)/i,
    'a receiver-side id',
  ],
  [
    /\b(?:your|the receiving|the receiver'?s?|the consumer'?s?|the subscriber'?s?) (?:endpoint|handler|receiver|consumer|listener|webhook handler)s?\b[^.]{0,60}\b(?:idempoten\w*|de-?dup\w*|de-?duplicat\w*|duplicates?)\b/i,
    'a receiver-side id',
  ],
  [
    /\bupsert\w*\b|\b(?:creates?|created) or (?:updates?|updated|replaces?|replaced)\b|\b(?:is|will be|gets) (?:updated|replaced|overwritten) (?:instead|if it (?:already )?exists)\b|\bupdates? the existing\b/i,
    'an upserting id',
  ],
  [
    /\bidempoten\w*\b[^.]{0,30}\b(?:isn'?t|is not|not) (?:currently |yet )?supported\b/i,
    'says idempotency is not supported',
  ],
  [/\bdeprecated\b[\s\S]{0,100}?\binstead\b/i, 'deprecated in favour of another field'],
  [/\b(?:that|which) (?:was|were) used\b|\bpresent if\b/i, 'reports a key after the fact'],
  [/^\s*(?:\[output only\]|output only|read-?only)\b|\bread-?only\.?\s*$/i, 'read-only'],
  [/^\s*(?:filters?|filtered|filtering)\b(?:\s+\w+){0,3}\s+(?:by|on)\b|\bto filter (?:by|on)\b/i, 'a filter'],
];

/**
 * Statements that weigh against what the description says, but not against a key's name: the field names
 * the resource acted on ("The id of the request to approve"; not AWS "The client token of the application to
 * update"), is response data ("returned by"; AWS copies "if NextToken was returned" onto DynamoDB's
 * ClientRequestToken), a switch, a pagination marker, a resource's name or a credential.
 */
const WEAK_NEGATIONS: readonly [RegExp, string][] = [
  [
    /^(?![\s\S]*\bclient (?:idempotency )?token)[\s\S]*\b(?:id|identifier|key|token|reference)\b[^.]{0,30}\b(?:of|for) the \w+(?: \w+)? (?:to|being|you want to) (?:retrieve|fetch|get|cancel|delete|update|approve|reject|return|look up|modify|remove|refund|capture|void)\b/i,
    'names the resource acted on',
  ],
  [/\breturned (?:by|from|in)\b/i, 'response data'],
  [
    /^\s*(?:whether|if true|when true|set (?:this )?to true|enables?|disables?|turns? (?:on|off)|toggles?)\b/i,
    'a switch',
  ],
  [/\b(?:pagination|next page|marker value|page token|continuation token)\b/i, 'a pagination marker'],
  [
    /\b(?:name|identifier|id) must be unique (?:within|in|across) (?:a|an|the|each|your) (?!request)/i,
    'a resource name',
  ],
  [/^\s*(?:required\.\s*)?(?:an?|the) valid\b/i, 'a credential or resource the call acts on'],
];

/**
 * The field identifies a resource rather than the request (DocuSign `transactionId`: "Used to identify an
 * envelope. … to ensure that an envelope is not sent multiple times"): what the description says of
 * duplicates is then only suggestive.
 */
const IDENTIFIES_RESOURCE =
  /^\s*(?:used to |this )?identif(?:y|ies) (?:an?|the) (?!(?:unique )?(?:request|call|submission|attempt|operation|retry|command)\b)\w+|^\s*(?:[\w’']+['’]s )?(?:unique )?(?:identifier|id) (?:of|for) (?:an?|the) (?!(?:unique )?(?:request|call|submission|attempt|operation|retry|command|client request)\b)\w+|\bused to uniquely identify the (?!(?:request|call|submission)\b)\w+/i;

const TRACING_WORDS =
  /\b(?:track(?:ing|ed)?|tracing|trace|correlat\w*|troubleshoot\w*|debugg?ing|logging|diagnos\w*)\b/i;

const quote = (text: string): string => {
  const flat = text
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > 100 ? `${flat.slice(0, 97)}…` : flat;
};

/**
 * What one description says of de-duplication (`readKeyDescription`): the same reading serves key carriers,
 * `possible_key_carrier` findings and any other step that asks whether the server dedupes on a field.
 */
export interface KeyDescriptionReading {
  /** 3: the field is the key or the server dedupes requests on it; 1–1.5: suggestive; 0: nothing said. */
  score: number;
  /** The statements that counted, each with the sentence that carries it. */
  signals: string[];
  /** A negation that vetoes the field whatever else is said (another request's key, a receiver's id …). */
  veto?: string;
  /** A negation that vetoes what the description says, not a key's name (response data, a switch …). */
  against?: string;
  /** The text speaks of tracing, correlation or debugging. */
  tracing: boolean;
  /** The statement is about duplicates of a thing, not of a request: decisive only with a suggestive name. */
  needsName?: boolean;
  /** A suggestive statement that does not add up with a suggestive name (request uniqueness). */
  alone?: boolean;
}

/** Description → its reading: the same text recurs across thousands of Graph bodies (one map per run). */
const READINGS = memoSlot('description readings', () => new Map<string, KeyDescriptionReading>());

/** The sentence around `index` (sentences end at `.`, `!` or `?` before white space). */
function sentenceOf(text: string, index: number): string {
  let start = 0;
  for (const m of text.slice(0, index).matchAll(/[.!?]\s+/g)) start = m.index + m[0].length;
  const end = /[.!?](?:\s|$)/.exec(text.slice(index));
  return text.slice(start, end ? index + end.index + 1 : undefined);
}

/** Markup and links out (a `…#idempotency` anchor says nothing), white space collapsed: the statements are about the words. */
const plain = (text: string): string =>
  text
    .replace(/<[^>]+>/g, ' ')
    .replace(/\bhttps?:\/\/[^\s)\]]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

function firstMatch<T extends unknown[]>(
  table: readonly [RegExp, string, ...T][],
  text: string,
): { why: string; sentence: string; rest: T } | undefined {
  for (const [re, why, ...rest] of table) {
    const m = re.exec(text);
    // The sentence where the match ends: a match may open with the end of the sentence before it.
    if (m) return { why, sentence: quote(sentenceOf(text, m.index + Math.max(m[0].length - 1, 0))), rest };
  }
  return undefined;
}

/**
 * Read what a description says of de-duplication: decisive statements (it is the key, requests are
 * de-duplicated on it, retries with it are safe), suggestive ones (idempotency or request uniqueness in
 * passing), negations, and whether it speaks of tracing. Memoised per run when given the run's memo.
 */
export function readKeyDescription(description: string, memo?: ClassifyMemo): KeyDescriptionReading {
  const readings = memo?.get(READINGS);
  const known = readings?.get(description);
  if (known) return known;
  compileEveryReading();
  const text = plain(description);
  const out: KeyDescriptionReading = { score: 0, signals: [], tracing: TRACING_WORDS.test(text) };
  const veto = firstMatch(NEGATIONS, text);
  if (veto) out.veto = `${veto.why}: "${veto.sentence}"`;
  const against = firstMatch(WEAK_NEGATIONS, text);
  if (against) out.against = `${against.why}: "${against.sentence}"`;
  const promise = keyDescriptionPromise(text);
  const decisive = promise === undefined && DECISIVE_WORDS.test(text) ? decisiveStatement(text) : undefined;
  if (promise !== undefined) {
    out.score = KEY;
    out.signals.push(`description says it is the key: "${quote(promise)}"`);
  } else if (decisive) {
    out.score = KEY;
    out.signals.push(`description (${decisive.why}): "${decisive.sentence}"`);
    out.needsName = NEEDS_NAME.has(decisive.why);
  }
  if (out.score >= KEY) {
    compileResource();
    const resource = IDENTIFIES_RESOURCE.exec(text);
    if (resource) {
      out.score = POSSIBLE;
      out.signals.push(`but it identifies a resource: "${quote(sentenceOf(text, resource.index))}"`);
    }
  }
  if (out.score < POSSIBLE) readSuggestive(text, out);
  readings?.set(description, out);
  return out;
}

/**
 * The patterns every reading runs, compiled ahead by the first one (regexps.ts); the rest are compiled by
 * the first reading that gets to them. On Stripe 76 of the 84 descriptions read pass DECISIVE_WORDS. This is
 * the one piece of state kept between runs here (memo.ts keeps the rest per run): whether V8 has compiled a
 * pattern changes when a reading is paid for, never what it says.
 */
const compileEveryReading = compileOnFirstUse([
  TRACING_WORDS,
  ...NEGATIONS.map(([re]) => re),
  ...WEAK_NEGATIONS.map(([re]) => re),
  ...KEY_PROMISE_PATTERNS,
  DECISIVE_WORDS,
]);
const compileDecisive = compileOnFirstUse(DECISIVE.map(([re]) => re));
const compileResource = compileOnFirstUse([IDENTIFIES_RESOURCE]);
const compileSuggestive = compileOnFirstUse([...SUGGESTIVE.map(([re]) => re), METHOD_IDEMPOTENT]);

function decisiveStatement(text: string): ReturnType<typeof firstMatch> {
  compileDecisive();
  return firstMatch(DECISIVE, text);
}

/** The first suggestive statement, unless it only says the method (not a key) is idempotent. */
function readSuggestive(text: string, out: KeyDescriptionReading): void {
  compileSuggestive();
  for (const [re, why, weight, alone] of SUGGESTIVE) {
    const m = re.exec(text);
    if (!m || (why === 'mentions idempotency' && METHOD_IDEMPOTENT.test(text))) continue;
    out.score = weight;
    out.signals.push(`description (${why}): "${quote(sentenceOf(text, m.index))}"`);
    if (alone) out.alone = true;
    return;
  }
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

type SchemaKind = 'string' | 'boolean' | 'number' | 'container' | 'enum' | 'date';

/** What kind of value the schema holds: only a free string can take a generated key. */
function schemaKind(schema: unknown): SchemaKind {
  if (!isObject(schema)) return 'string';
  const t = schema.type;
  const types = Array.isArray(t) ? t.filter((x) => x !== 'null') : t === undefined ? [] : [t];
  if (types.length > 0 && types.every((x) => x === 'boolean')) return 'boolean';
  if (types.some((x) => x === 'object' || x === 'array')) return 'container';
  if (types.length === 0 && (schema.properties !== undefined || schema.items !== undefined)) return 'container';
  // Google discovery writes 64-bit integers as strings with `format: int64`.
  if (types.some((x) => x === 'integer' || x === 'number') || /^u?int-?\d*$/.test(String(schema.format ?? '')))
    return 'number';
  if (Array.isArray(schema.enum)) return 'enum';
  if (/^date/.test(String(schema.format ?? ''))) return 'date';
  return 'string';
}

const CAPS: Readonly<Record<Exclude<SchemaKind, 'string' | 'boolean' | 'container'>, string>> = {
  number: 'schema: a number cannot hold a generated key',
  enum: 'schema: a value picked from a list cannot hold a generated key',
  date: 'schema: a date cannot hold a generated key',
};

/** Why a boolean is no key (before the reading for any name but a key's, after it for a key's name). */
const SWITCH_VETO = 'veto: a switch (boolean schema)';

/**
 * The `no` a candidate gets without its description being read, when its name and schema decide it (0225):
 * - a switch, or an object or array without a key's name, is no key whatever its description says (below, a
 *   description can veto a key's name but not make a container a key): Stripe's and Graph's bodies are mostly
 *   such properties, and a third of their distinct descriptions sit only on them;
 * - without a name that says something, only a score makes a candidate: a description that cannot score
 *   (`mayScore`) is not read.
 */
function noUnread(
  nameScore: number,
  kind: SchemaKind,
  text: string,
  signals: string[],
  memo: ClassifyMemo,
): Evidence | undefined {
  if (nameScore < KEY && (kind === 'boolean' || kind === 'container'))
    return { verdict: 'no', signals: kind === 'boolean' ? [...signals, SWITCH_VETO] : signals };
  if (nameScore === 0 && (text === '' || !mayScore(text, memo))) return { verdict: 'no', signals };
  return undefined;
}

/**
 * Weigh one candidate: what its description says first (a negation vetoes, a decisive statement makes a key
 * at any depth whatever the name), then its name, then schema and position. A schema that cannot hold a
 * generated key (a number, an enum, a date) or a place that needs one key per item (an array's items) turns
 * `key` into `possible`: the finding says so, the key is not guessed.
 */
export function weighCandidate(c: Candidate, h: Heuristics, memo: ClassifyMemo): Evidence {
  const standard = standardOf(c);
  const withStandard = (e: Evidence): Evidence => (standard && e.verdict !== 'no' ? { ...e, standard } : e);
  if (NOT_KEY_FIELDS.has(c.name)) return { verdict: 'no', signals: [`veto: ${c.name} is a business value`] };
  if (isObject(c.schema) && c.schema.readOnly === true) return { verdict: 'no', signals: ['veto: readOnly'] };
  const name = nameSignal(c, h);
  const kind = schemaKind(c.schema);
  const signals: string[] = [];
  if (name.signal) signals.push(name.signal);
  const text = typeof c.description === 'string' ? c.description : '';
  const unread = noUnread(name.score, kind, text, signals, memo);
  if (unread) return unread;
  const reading = text !== '' ? readKeyDescription(text, memo) : undefined;
  if (reading?.veto) return { verdict: 'no', signals: [`veto (${reading.veto})`] };
  if (kind === 'boolean') return { verdict: 'no', signals: [...signals, SWITCH_VETO] };
  const cap =
    kind === 'number' || kind === 'enum' || kind === 'date'
      ? CAPS[kind]
      : c.inItems
        ? "position: in an array's items (each item needs its own key; one key per call would collide)"
        : undefined;
  const decide = (by: 'name' | 'description'): Evidence =>
    cap === undefined
      ? withStandard({ verdict: 'key', signals, decidedBy: by })
      : withStandard({ verdict: 'possible', signals: [...signals, cap] });
  // A key name on a number stays a key (an SMS API's int32 `deduplication-id`): the vendor named it so.
  if (name.score >= KEY)
    return c.inItems ? decide('name') : withStandard({ verdict: 'key', signals, decidedBy: 'name' });
  if (reading?.against) return { verdict: 'no', signals: [...signals, `veto (${reading.against})`] };
  // A tracing header is never a key unless its own description says the server dedupes on it.
  const tracing = isTracingName(c) || reading?.tracing === true;
  if (reading && reading.score > 0) signals.push(...reading.signals);
  if (reading && reading.score >= KEY && !(reading.needsName && name.score === 0)) return decide('description');
  if (tracing) return { verdict: 'no', signals: [...signals, 'veto: a tracing or correlation id'] };
  const read = Math.min(reading?.score ?? 0, reading?.needsName && name.score === 0 ? POSSIBLE : KEY);
  const said = reading?.alone ? Math.max(name.score, read) : name.score + read;
  if (said >= KEY && name.score > 0) return decide('description');
  if (said === 0) return { verdict: 'no', signals };
  const schema = schemaSignals(c);
  signals.push(...schema.signals);
  // Position: two objects down a field belongs to a sub-resource more often than to the request.
  const deep = (c.depth ?? 0) >= 2 ? 0.5 : 0;
  if (deep > 0) signals.push(`position: ${c.depth} objects below the body root`);
  if (cap !== undefined) signals.push(cap);
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
