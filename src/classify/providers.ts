/**
 * Providers that accept an idempotency key without declaring it in their OpenAPI documents
 * (docs/concepts.md#mechanisms, last evidence). Keyed by server host; each entry cites the vendor's own page.
 * `config.heuristics.providers` adds to this list.
 */
import picomatch from 'picomatch';
import type { CarrierInput } from './types.js';
import { ClassifyMemo, memoSlot } from './memo.js';

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
  /** The response header the provider sets to `true` on a replayed request (its absence means a fresh call). */
  replayHeader?: string;
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
    // Stripe marks a replayed answer with `Idempotent-Replayed: true` (its API reference, idempotent requests).
    replayHeader: 'Idempotent-Replayed',
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

/**
 * The built-in providers are constants, so the globs their hosts compile to and the answers for each server
 * are kept for the process: emit asks per native-key operation, outside any classify run's memo.
 */
const BUILTIN_MEMO = new ClassifyMemo();

/** The replay header a built-in provider documents for these servers, if one does. */
export function providerReplayHeader(servers: readonly string[]): string | undefined {
  for (const p of BUILTIN_PROVIDERS)
    if (p.replayHeader !== undefined && servesHost(BUILTIN_MEMO, p, servers)) return p.replayHeader;
  return undefined;
}

export function hostOf(serverUrl: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/:?#]+)/i.exec(serverUrl.trim());
  return m ? m[1].toLowerCase() : undefined;
}

/** Normalise `{id}` path templates to `*` so provider path globs match them. */
function globbablePath(path: string): string {
  return path.replace(/\{[^}]*\}/g, '_');
}

type Matcher = (text: string) => boolean;
/**
 * Compiled globs, by options and pattern (a string, or a list by identity: providers and config are not
 * edited during a run): compiling one per operation was a visible part of classify on Graph.
 */
const COMPILED = memoSlot('compiled provider globs', () => ({
  exact: new Map<string | readonly string[], Matcher>(),
  nocase: new Map<string | readonly string[], Matcher>(),
}));
function globMatcher(memo: ClassifyMemo, patterns: string | string[], nocase: boolean): Matcher {
  const compiled = memo.get(COMPILED);
  const byPattern = nocase ? compiled.nocase : compiled.exact;
  let match = byPattern.get(patterns);
  if (match === undefined) {
    const glob = nocase ? picomatch(patterns, { nocase: true, dot: true }) : picomatch(patterns);
    // Every operation of an API asks about the same few hosts: each answer is kept.
    const answers = new Map<string, boolean>();
    match = (text) => {
      let yes = answers.get(text);
      if (yes === undefined) {
        yes = glob(text);
        answers.set(text, yes);
      }
      return yes;
    };
    byPattern.set(patterns, match);
  }
  return match;
}

/** Host of each server URL, once per run: every operation of an API lists the same few servers. */
const HOSTS = memoSlot('server hosts', () => new Map<string, string | undefined>());
function hostOfServer(memo: ClassifyMemo, serverUrl: string): string | undefined {
  const hosts = memo.get(HOSTS);
  if (hosts.has(serverUrl)) return hosts.get(serverUrl);
  const host = hostOf(serverUrl);
  hosts.set(serverUrl, host);
  return host;
}

/** Whether one of the servers' hosts is one of the provider's (globs, any case). */
function servesHost(memo: ClassifyMemo, p: Provider, servers: readonly string[]): boolean {
  const hostMatch = globMatcher(memo, p.hosts, true);
  return servers.some((s) => {
    const h = hostOfServer(memo, s);
    return h !== undefined && hostMatch(h);
  });
}

export function findProvider(
  memo: ClassifyMemo,
  providers: readonly Provider[],
  servers: readonly string[],
  method: string,
  path: string,
): Provider | undefined {
  let globbable: string | undefined;
  for (const p of providers) {
    if (!p.methods.includes(method)) continue;
    // Hosts first: their answers are remembered, and most providers are not the API's.
    if (!servesHost(memo, p, servers)) continue;
    if (!p.paths) return p;
    globbable ??= globbablePath(path);
    const target = globbable;
    if (p.paths.some((g) => globMatcher(memo, g, false)(target))) return p;
  }
  return undefined;
}
