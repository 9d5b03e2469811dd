/**
 * A verification plan: plain data (classify finds it in the spec; the generated client's description and a
 * tool binding carry it) that tells, after an unknown outcome, whether one call of a write took effect — by
 * reads only. Shapes:
 * - `natural-key`: the write's arguments hold an identifier the API keeps unique, and a read is addressed by it
 *   (`GET /repos/{owner}/{repo}` after creating a repository by name).
 * - `client-reference`: the write is stamped with a value derived from its key in a field the API stores
 *   (`metadata`, `external_id`), and a list or search read filters on that field.
 * - `refused-duplicate`: the API refuses a second create of the same identifier (`409 already exists`): the
 *   write is run once more and that refusal is the answer.
 */

/** Where one argument of the lookup read takes its value. */
export type LookupValue =
  /** A value of the write's own request (`body` names may be dotted: `metadata.order`). */
  | { readonly from: 'request'; readonly in: 'path' | 'query' | 'body'; readonly name: string }
  /** The stamp itself, or the stamp inside a template (`metadata['idemgen_key']:'{stamp}'`). */
  | { readonly from: 'stamp'; readonly template?: string }
  /** An object `{ [field]: stamp }` (a deep-object filter: `metadata[idemgen_key]=…`). */
  | { readonly from: 'stamp-object'; readonly field: string };

export interface LookupArg {
  readonly in: 'path' | 'query';
  readonly name: string;
  readonly value: LookupValue;
}

export interface LookupRead {
  /** The read's operation key (`GET /repos/{owner}/{repo}`). */
  readonly operation: string;
  readonly method: 'GET';
  readonly path: string;
  readonly args: readonly LookupArg[];
  /**
   * A list read: the response's array of items (`[]` for a top-level array, `['data']`); absent: the read returns
   * the one resource or 404.
   */
  readonly items?: readonly string[];
  /** Where the stamp is visible on an item, to check the filter was applied (`['metadata', 'idemgen_key']`). */
  readonly matchPath?: readonly string[];
}

interface StampPlace {
  /** Body path of the field that gets the stamp (`['metadata', 'idemgen_key']`, `['external_id']`). */
  readonly path: readonly string[];
}

export type VerificationPlan =
  | { readonly shape: 'natural-key'; readonly read: LookupRead }
  | { readonly shape: 'client-reference'; readonly stamp: StampPlace; readonly read: LookupRead }
  | { readonly shape: 'refused-duplicate'; readonly statuses: readonly number[]; readonly read?: LookupRead };

/** What a lookup concluded about one call: the seam `reconcile --verify` and the elicitation path call too. */
export type Verdict =
  | { readonly status: 'found'; readonly resource: unknown; readonly evidence: string }
  | { readonly status: 'absent'; readonly evidence: string }
  | { readonly status: 'unknown'; readonly evidence: string };

/** Bounded settle delay for eventually consistent reads: `reads` tries, `delayMs` apart (an absent answer is re-read). */
export interface SettleOptions {
  readonly reads?: number;
  readonly delayMs?: number;
}
