import type { InputEntry } from './api-names.js';
import type { Carrier, KeyStrategy, Mechanism } from '../classify/types.js';
import type { Severity } from '../diagnostics/diagnostic.js';

export type Dialect = 'postgres' | 'sqlite' | 'mysql';
export type ArtifactKind = 'client' | 'sql' | 'tools' | 'report';

/** Per-operation override, matched by operation key (`POST /v1/charges`, `tool:send_email`) or operationId/name. */
export interface OperationOverride {
  effect?: 'read' | 'write';
  mechanism?: Mechanism;
  carrier?: Carrier | null;
  keyStrategy?: KeyStrategy;
  ttlSeconds?: number;
  /** OP-5: key of the compensating operation. */
  compensation?: string;
  /** OP-4: the owned table to put the unique idempotency-key column on. */
  table?: string;
}

export interface OwnedConfig {
  hosts?: string[];
  servers?: string[];
  /** Globs over the operation path (`/internal/**`). */
  paths?: string[];
  tags?: string[];
}

/** What a user writes in idemgen.config.*; every field optional. */
export interface UserConfig {
  /** Files or folders; an entry `{ path, apiName }` names the API it holds (client, class and tool file names). */
  inputs?: (string | InputEntry)[];
  /** The name of the run's single API (several APIs: name them per input). */
  apiName?: string;
  out?: string;
  artifacts?: ArtifactKind[];
  owned?: OwnedConfig;
  overrides?: Record<string, OperationOverride>;
  dialects?: Dialect[];
  sql?: { schema?: string; tablePrefix?: string; dedupTable?: string; sagaTable?: string };
  /** Rule id → severity, or 'off'. */
  severities?: Record<string, Severity | 'off'>;
  /** Extend the built-in heuristics (STYLE habit 6). */
  heuristics?: {
    writeVerbs?: string[];
    readVerbs?: string[];
    keyHeaders?: string[];
    keyFields?: string[];
    providers?: { host: string; carrier: Carrier; ttlSeconds?: number; methods?: string[] }[];
  };
  tools?: { mcpHeader?: boolean; defaultTtlSeconds?: number };
  /** Default dedup TTL for our own stores (seconds, ≥ 24 h by default). */
  defaultTtlSeconds?: number;
}

/** Config after defaults; what classify/emit receive. `configFile` is informational only. */
export interface ResolvedConfig extends Required<Pick<UserConfig, 'out' | 'artifacts' | 'dialects'>> {
  inputs: string[];
  /** Absolute input path → apiName, from `{ path, apiName }` entries. */
  apiNames: Record<string, string>;
  apiName?: string;
  configFile?: string;
  owned: OwnedConfig;
  overrides: Record<string, OperationOverride>;
  sql: { schema?: string; tablePrefix: string; dedupTable: string; sagaTable: string };
  severities: Record<string, Severity | 'off'>;
  heuristics: NonNullable<UserConfig['heuristics']>;
  tools: { mcpHeader: boolean; defaultTtlSeconds: number };
  defaultTtlSeconds: number;
}

export const DEFAULT_TTL_SECONDS = 24 * 60 * 60;

export function resolveConfig(user: UserConfig = {}, configFile?: string): ResolvedConfig {
  const prefix = user.sql?.tablePrefix ?? 'idemgen_';
  return {
    configFile,
    inputs: (user.inputs ?? ['specs']).map((i) => (typeof i === 'string' ? i : i.path)),
    apiNames: Object.fromEntries((user.inputs ?? []).flatMap((i) => (typeof i === 'object' && i.apiName ? [[i.path, i.apiName]] : []))),
    apiName: user.apiName,
    out: user.out ?? 'generated',
    artifacts: user.artifacts ?? ['client', 'sql', 'tools', 'report'],
    dialects: user.dialects ?? ['postgres', 'sqlite', 'mysql'],
    owned: user.owned ?? {},
    overrides: user.overrides ?? {},
    sql: {
      schema: user.sql?.schema,
      tablePrefix: prefix,
      dedupTable: user.sql?.dedupTable ?? `${prefix}dedup`,
      sagaTable: user.sql?.sagaTable ?? `${prefix}saga`,
    },
    severities: user.severities ?? {},
    heuristics: user.heuristics ?? {},
    tools: { mcpHeader: user.tools?.mcpHeader ?? false, defaultTtlSeconds: user.tools?.defaultTtlSeconds ?? DEFAULT_TTL_SECONDS },
    defaultTtlSeconds: user.defaultTtlSeconds ?? DEFAULT_TTL_SECONDS,
  };
}
