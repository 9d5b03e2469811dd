/**
 * Providers that accept an idempotency key without declaring it in their OpenAPI documents
 * (docs/concepts.md#mechanisms, last evidence). Keyed by server host; each entry cites the vendor's own page.
 * `config.heuristics.providers` adds to this list.
 */
import picomatch from 'picomatch';
import type { CarrierInput } from './types.js';
import { type ClassifyMemo, memoSlot } from './memo.js';

export interface Provider {
  /** Host names; `*` globs allowed (`*.adyen.com`). */
  hosts: string[];
  carrier: CarrierInput;
  ttlSeconds?: number;
  /** Lower-case HTTP methods the key applies to. */
  methods: string[];
  /** Path globs (picomatch) the key applies to; every path when absent. */
  paths?: string[];
  /** Where the claim comes from (vendor documentation URL or config). */
  source: string;
}

const DAY = 24 * 60 * 60;

export const BUILTIN_PROVIDERS: readonly Provider[] = [
  {
    // https://docs.stripe.com/api/idempotent_requests — "All POST requests accept idempotency keys";
    // "Idempotency keys are up to 255 characters long"; keys are pruned once "at least 24 hours old".
    // files.stripe.com serves POST /v1/files of the same API.
    hosts: ['api.stripe.com', 'files.stripe.com'],
    carrier: { in: 'header', name: 'Idempotency-Key', maxLength: 255, required: false },
    ttlSeconds: DAY,
    methods: ['post'],
    source: 'https://docs.stripe.com/api/idempotent_requests',
  },
  {
    // https://docs.adyen.com/development-resources/api-idempotency — POST requests, `Idempotency-Key`
    // header, "a maximum of 64 characters", keys "valid for a minimum period of 31 days".
    hosts: ['*.adyen.com', '*.adyenpayments.com'],
    carrier: { in: 'header', name: 'Idempotency-Key', maxLength: 64, required: false },
    ttlSeconds: 31 * DAY,
    methods: ['post'],
    source: 'https://docs.adyen.com/development-resources/api-idempotency',
  },
  {
    // https://gocardless.com/blog/idempotency-keys/ — `Idempotency-Key` header "across all our
    // creation endpoints" (POST). No retention window is documented there, so no TTL.
    hosts: ['api.gocardless.com', 'api-sandbox.gocardless.com'],
    carrier: { in: 'header', name: 'Idempotency-Key', required: false },
    methods: ['post'],
    source: 'https://gocardless.com/blog/idempotency-keys/',
  },
  {
    // https://www.checkout.com/docs/developer-resources/api/idempotency — `Cko-Idempotency-Key` on the
    // listed payment endpoints only; keys expire after 24 hours in production.
    hosts: ['api.checkout.com', 'api.sandbox.checkout.com', '*.api.checkout.com', '*.api.sandbox.checkout.com'],
    carrier: { in: 'header', name: 'Cko-Idempotency-Key', required: false },
    ttlSeconds: DAY,
    methods: ['post'],
    paths: [
      '/payment-contexts',
      '/payments',
      '/payments/*/{authorizations,cancellations,captures,refunds,voids}',
      '/transfers',
    ],
    source: 'https://www.checkout.com/docs/developer-resources/api/idempotency',
  },
];

export function hostOf(serverUrl: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/:?#]+)/i.exec(serverUrl.trim());
  return m ? m[1].toLowerCase() : undefined;
}

/** Normalise `{id}` path templates to `*` so provider path globs match them. */
function globbablePath(path: string): string {
  return path.replace(/\{[^}]*\}/g, '_');
}

type Matcher = (text: string) => boolean;
/** Compiled globs, by options and pattern: compiling one per operation was a visible part of classify on Graph. */
const COMPILED = memoSlot('compiled provider globs', () => new Map<string, Matcher>());
function globMatcher(memo: ClassifyMemo, patterns: string | string[], nocase: boolean): Matcher {
  const compiled = memo.get(COMPILED);
  const id = `${nocase ? 'i' : 's'}\0${Array.isArray(patterns) ? patterns.join('\0') : patterns}\0${Array.isArray(patterns) ? 'a' : 'o'}`;
  let match = compiled.get(id);
  if (match === undefined) {
    match = nocase ? picomatch(patterns, { nocase: true, dot: true }) : picomatch(patterns);
    compiled.set(id, match);
  }
  return match;
}

export function findProvider(
  memo: ClassifyMemo,
  providers: readonly Provider[],
  servers: readonly string[],
  method: string,
  path: string,
): Provider | undefined {
  for (const p of providers) {
    if (!p.methods.includes(method)) continue;
    if (p.paths && !p.paths.some((g) => globMatcher(memo, g, false)(globbablePath(path)))) continue;
    const hostMatch = globMatcher(memo, p.hosts, true);
    if (
      servers.some((s) => {
        const h = hostOf(s);
        return h !== undefined && hostMatch(h);
      })
    )
      return p;
  }
  return undefined;
}
