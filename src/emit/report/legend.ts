/**
 * Every word the audit prints about an operation, explained where a reviewer meets it (the HTML report's
 * legend, the Markdown report's key). Short forms of docs/concepts.md; a test checks that every mechanism,
 * class, key strategy, carrier place and alias of the vocabulary has an entry here.
 */
import type { Mechanism, OperationClass } from '../../classify/types.js';
import type { KeyStrategy } from '../../config/vocabulary.js';

export interface LegendEntry {
  term: string;
  /** The `OP-n` alias the audit prints next to the term, if any. */
  alias?: string;
  text: string;
  /** docs/concepts.md anchor. */
  see: string;
}

export const MECHANISM_LEGEND: Readonly<Record<Mechanism, LegendEntry>> = {
  'native-key': {
    term: 'native-key',
    alias: 'OP-1',
    text: 'The API takes an idempotency key of its own (a header, body field or query parameter) and ignores a repeat of it; the API keeps the record.',
    see: 'mechanisms',
  },
  'dedup-table': {
    term: 'dedup-table',
    alias: 'OP-2',
    text: 'A row per key in our dedup table is claimed before the call and completed after it; a repeat gets the stored result back.',
    see: 'mechanisms',
  },
  'content-address': {
    term: 'content-address',
    alias: 'OP-3',
    text: 'The request names its result by its content (a PUT to a digest), so doing it twice writes the same thing.',
    see: 'mechanisms',
  },
  'unique-insert': {
    term: 'unique-insert',
    alias: 'OP-4',
    text: 'An insert into a table we own with a unique key column: the second insert does nothing and returns the first row.',
    see: 'mechanisms',
  },
  saga: {
    term: 'saga',
    alias: 'OP-5',
    text: 'No key, but the effect has an inverse (create ↔ delete): the run records the external id so an unknown outcome can be undone.',
    see: 'mechanisms',
  },
  'method-idempotent': {
    term: 'method-idempotent',
    text: 'The HTTP method repeats harmlessly for this resource (DELETE of an addressed resource, PUT replacing it), so a repeat leaves the same state.',
    see: 'mechanisms',
  },
  'fail-closed': {
    term: 'fail-closed',
    text: 'Nothing above applies: a duplicate is blocked, and when an outcome is unknown the call is not repeated automatically; someone reconciles it.',
    see: 'fail-closed',
  },
  none: { term: 'none', text: 'A read: a plain call, no key, nothing recorded.', see: 'side-effects' },
};

export const CLASS_LEGEND: Readonly<Record<OperationClass, LegendEntry>> = {
  'read-only': { term: 'read-only', text: 'Running it twice changes nothing.', see: 'side-effects' },
  'native-key': {
    term: 'native-key',
    text: 'A write the API itself deduplicates by a key the caller sends.',
    see: 'mechanisms',
  },
  'method-idempotent': {
    term: 'method-idempotent',
    text: 'A write whose HTTP method makes a repeat leave the same state.',
    see: 'mechanisms',
  },
  'owned-store': {
    term: 'owned-store',
    text: 'A write to a store we own, deduplicated there (dedup-table, content-address or unique-insert).',
    see: 'mechanisms',
  },
  compensatable: {
    term: 'compensatable',
    text: 'A write with a known inverse operation, run as a saga.',
    see: 'mechanisms',
  },
  irreversible: {
    term: 'irreversible',
    text: 'A write with no key, no owned store and no inverse as far as idemgen can tell: it fails closed.',
    see: 'fail-closed',
  },
};

export const KEY_STRATEGY_LEGEND: Readonly<Record<KeyStrategy, LegendEntry>> = {
  caller: { term: 'caller', text: 'The caller passes the key itself ({ key }).', see: 'keys-and-scopes' },
  intent: {
    term: 'intent',
    text: 'The caller passes a scope (the conversation and turn); the key is derived from the scope, the operation and the arguments.',
    see: 'keys-and-scopes',
  },
  content: {
    term: 'content',
    text: 'The key is the hash of the canonical request; only for content-address writes, whose content is their identity.',
    see: 'keys-and-scopes',
  },
};

export const CARRIER_LEGEND: readonly LegendEntry[] = [
  {
    term: 'key carrier',
    text: 'Where a native key travels: header (by name), body or form (a property path), query (a parameter) or argument (a tool input); (≤ n) is its maximum length.',
    see: 'carriers',
  },
  {
    term: 'TTL',
    text: 'How long a completed dedup row replays a repeat (the window), counted from completion.',
    see: 'windows',
  },
  {
    term: 'tool-dedup',
    alias: 'OP-7',
    text: 'A tool given to a model requires an idempotency_key argument and the tool server deduplicates on it, on top of the mechanism.',
    see: 'tool-dedup',
  },
  {
    term: 'checkpoint keys',
    alias: 'OP-6',
    text: 'In LangGraph, a node that re-runs on resume takes its key from checkpointed state, so the re-run sends the same key.',
    see: 'checkpoint-keys',
  },
  {
    term: 'severity',
    text: 'error: the configuration cannot work as written; warning: a write an agent cannot safely retry or a definition to fix; info (a note): worth knowing, nothing to fix.',
    see: 'mechanisms',
  },
];
