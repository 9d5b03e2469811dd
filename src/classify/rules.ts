/**
 * Audit rules: stable ids (the Diagnostic `code`), default severity, and the text the reports
 * (SARIF `tool.driver.rules`, Markdown) show. Severities are overridable by `config.severities`.
 */
import { diagnostic, type Diagnostic, type Severity } from '../diagnostics/diagnostic.js';
import type { ResolvedConfig } from '../config/types.js';

export interface RuleMeta {
  id: string;
  severity: Severity;
  title: string;
  description: string;
  /** Where the rule's reasoning is written down: a docs/concepts.md section, an RFC or spec section. */
  source: string;
  /**
   * The other severities the rule reports, each in a named case (decided where the finding is made); the
   * reports print them with the default, so the rule table and the findings never disagree. The first
   * case is the rule's lowered severity (`loweredSeverity`).
   */
  cases?: readonly { severity: Severity; when: string }[];
}

export const RULES: readonly RuleMeta[] = [
  {
    id: 'write_without_key_mechanism',
    severity: 'warning',
    title: 'Write with no idempotency mechanism downstream',
    description:
      'The operation writes, the API accepts no idempotency key, the store is not ours and no inverse is known, so it is fail-closed: a duplicate is blocked, and an ambiguous outcome is never retried automatically and must be reconciled by hand.',
    source: 'docs/concepts.md#fail-closed',
    cases: [
      {
        severity: 'info',
        when: 'the write is a PUT or DELETE, which a repeat leaves in the same state by method semantics',
      },
    ],
  },
  {
    id: 'method_semantics_contradicted',
    severity: 'info',
    title: 'PUT/DELETE not trusted to repeat by method semantics',
    description:
      'A PUT or DELETE of an addressed resource is safe to repeat by method (method-idempotent), but this spec says otherwise: the path names an action (cancel, trigger, send, a custom method) or the summary/description opens with one or says a repeat adds an effect. The operation keeps its store-backed or fail-closed mechanism; an override can force method-idempotent.',
    source: 'RFC 9110 §9.2.2; docs/concepts.md#mechanisms',
  },
  {
    id: 'tool_missing_required_key',
    severity: 'warning',
    title: 'Side-effecting tool without a required idempotency_key',
    description:
      'A side-effecting tool must require an idempotency_key argument so transport retries dedupe at the tool boundary (tool-dedup); the generated tool schema adds it.',
    source: 'docs/concepts.md#tool-dedup',
  },
  {
    id: 'key_carrier_too_short',
    severity: 'warning',
    title: 'Idempotency key carrier too short',
    description:
      'The key carrier allows fewer than 16 characters: too little entropy for a random key (a UUID needs 36, 128 random bits need 22 in base64url), so unrelated intents can collide and one would replay the other.',
    source: 'docs/concepts.md#good-keys',
  },
  {
    id: 'verification_read_missing',
    severity: 'error',
    title: 'Verification override names no usable read',
    description:
      'An override declares a verification plan whose read is not a GET operation of the API, or whose arguments are not written as path.NAME, query.NAME or body.FIELD: no plan is kept, and an unknown outcome of the write stays unknown.',
    source: 'docs/concepts.md#fail-closed',
  },
  {
    id: 'compensation_target_missing',
    severity: 'error',
    title: 'Compensation names an operation that does not exist',
    description:
      'x-compensation or config.overrides.*.compensation names an operation key that is not in this API, so the saga cannot undo.',
    source: 'docs/concepts.md#mechanisms (saga)',
  },
  {
    id: 'extension_contradicts_header',
    severity: 'error',
    title: 'Idempotency extension contradicts the declared header',
    description:
      'A vendor extension names a different key carrier than the header parameter the operation declares (or denies a key the operation declares).',
    source: 'docs/concepts.md#good-keys (one key, one place)',
  },
  {
    id: 'ambiguous_tool_effect',
    severity: 'warning',
    title: 'Tool name and annotations disagree about its effect',
    description:
      'The tool name reads like a read, but its annotations say it is destructive (or read-only and destructive at once). It is classified as a write; fix the name or the annotations.',
    source: 'MCP ToolAnnotations; docs/concepts.md#side-effects',
  },
  {
    id: 'probable_query_post',
    severity: 'warning',
    title: 'POST that looks like a query',
    description:
      'The POST is named like a read (its last path segment or operationId starts or ends with get, list, search, retrieve, query, lookup, fetch, find, describe, calculate, preview, validate, count, check or render, and no write verb). It stays a write — only config or x-idempotency: exempt may declare a POST a query — so check it and, if it only reads, add the override from the hint. A note when the API already takes a key (native-key).',
    source: 'docs/concepts.md#side-effects; RFC 9110 §9.3.3',
    cases: [{ severity: 'info', when: 'the API already takes an idempotency key (native-key)' }],
  },
  {
    id: 'key_not_resume_safe',
    severity: 'warning',
    title: 'Idempotency key would not survive a framework resume',
    description:
      'A LangGraph node body re-runs from the top on resume: a caller key must be persisted in the state slot {operation}_idempotency_key before the call (a reminder when the state fields are unknown), a content key swallows a new intent with the same arguments, and a write without a key strategy repeats its call.',
    source: 'docs/concepts.md#checkpoint-keys, docs/concepts.md#good-keys',
    cases: [
      { severity: 'info', when: 'a caller key and the graph state fields are not known (a reminder)' },
      { severity: 'error', when: 'the write has no key strategy at all' },
    ],
  },
  {
    id: 'operation_name_collision',
    severity: 'warning',
    title: 'Two operations map to the same generated name',
    description:
      "A synthesized or sanitized operation name collides with another operation's name; the operation whose operationId is already a valid identifier keeps it and the other gets a numeric suffix. Give the renamed operation a distinct operationId so client method and tool names stay stable.",
    source: 'OpenAPI 3.1 §4.8.10 (operationId is unique and case-sensitive); docs/concepts.md#names',
  },
  {
    id: 'multiple_key_carriers',
    severity: 'info',
    title: 'More than one idempotency key carrier declared',
    description:
      'The operation declares the key in more than one place (a header and a query or body field). One carrier is used, chosen deterministically: header first, then query/form parameter, then body field.',
    source: 'docs/concepts.md#good-keys (one key, one place)',
  },
  {
    id: 'key_in_some_variants',
    severity: 'warning',
    title: 'Idempotency key only in some request-body variants',
    description:
      'The request body is a oneOf/anyOf and only some variants declare the key field. Calls with the other variants carry no key the API knows, so their retries are not deduplicated downstream.',
    source: 'docs/concepts.md#mechanisms (native-key), docs/concepts.md#carriers',
  },
  {
    id: 'prose_only_idempotency',
    severity: 'info',
    title: 'Idempotency promised in prose, no carrier declared',
    description:
      'The operation description says the API deduplicates by an idempotency key, but no header, parameter or body field declares it. Confirm with the vendor and paste the suggested override to use the native key (native-key).',
    source: 'docs/concepts.md#mechanisms (native-key)',
  },
  {
    id: 'possible_key_carrier',
    severity: 'info',
    title: 'A field may carry an idempotency key',
    description:
      'A header, query parameter or body field has some evidence of being an idempotency key (a name like command_id or a request id, a description that mentions rejected repeats or deduplication in passing) but not enough to decide. The operation keeps its class; if the API dedupes on that field, paste the suggested override to use it as the native key (OP-1).',
    source: 'docs/concepts.md#mechanisms (native-key)',
  },
];

const RULE_BY_ID: ReadonlyMap<string, RuleMeta> = new Map(RULES.map((r) => [r.id, r]));

/** The severity a rule reports in its first named case (`RuleMeta.cases`); undefined (the default) without one. */
export function loweredSeverity(id: string): Severity | undefined {
  return RULE_BY_ID.get(id)?.cases?.[0]?.severity;
}

/** `warning; info when …`: every severity a rule reports, the default first. */
export function severityText(rule: RuleMeta): string {
  return [rule.severity, ...(rule.cases ?? []).map((c) => `${c.severity} when ${c.when}`)].join('; ');
}

/** Build a finding with the configured severity; `undefined` when the user turned the rule off. */
export function makeFinding(
  config: ResolvedConfig,
  id: string,
  message: string,
  where: { file: string; pointer: string; hint?: string },
  severity?: Severity,
): Diagnostic | undefined {
  const configured = config.severities[id];
  if (configured === 'off') return undefined;
  const base = severity ?? RULE_BY_ID.get(id)?.severity ?? 'warning';
  return diagnostic(id, configured ?? base, message, where);
}
