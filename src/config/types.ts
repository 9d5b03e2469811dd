import type { InputEntry } from './api-names.js';
import type { CarrierInput, KeyStrategy, MechanismInput } from './vocabulary.js';
import type { Severity } from '../diagnostics/diagnostic.js';

export type Dialect = 'postgres' | 'sqlite' | 'mysql';

/** Per-operation override, matched by operation key (`POST /v1/charges`, `tool:send_email`) or operationId/name. */
export interface OperationOverride {
  effect?: 'read' | 'write';
  /** A mechanism name; its alias (`OP-1`…`OP-5`) is accepted too. */
  mechanism?: MechanismInput;
  carrier?: CarrierInput | null;
  keyStrategy?: KeyStrategy;
  ttlSeconds?: number;
  /** Per HTTP attempt of this operation, in ms: replaces the client's or tool runtime's `timeoutMs` (a slow export). */
  timeoutMs?: number;
  /** For a `saga`: key of the compensating operation. */
  compensation?: string;
  /** For `unique-insert`: the owned table to put the unique idempotency-key column on. */
  table?: string;
  /**
   * A physical or financial action with no undo: `idemgen serve` and the generated MCP servers ask the user to
   * confirm it (MCP elicitation) before it runs, whatever `serve.confirm` says. Writes only.
   */
  impact?: 'physical' | 'financial';
  /** How to tell afterwards whether a call took effect (classify/verification.ts); `false`: no plan. */
  verification?: VerificationOverride | false;
}

/**
 * A declared verification plan. `read`: a GET operation key; `args`: its path parameters ← `path.NAME`,
 * `query.NAME` or `body.FIELD` of the write (default: the write's path parameter of the same name).
 * client-reference: `stamp` is the body path that gets the key-derived value (default `metadata.idemgen_key`),
 * `filter` the read's query parameter (default the stamp's first segment), `template` a search text around
 * `{stamp}`, `items` the response's array (dotted; `""` for a top-level array).
 */
export interface VerificationOverride {
  shape: 'natural-key' | 'client-reference' | 'refused-duplicate';
  read?: string;
  args?: Record<string, string>;
  stamp?: string;
  filter?: string;
  template?: string;
  items?: string;
  statuses?: number[];
}

export interface OwnedConfig {
  hosts?: string[];
  servers?: string[];
  /** Globs over the operation path (`/internal/**`). */
  paths?: string[];
  tags?: string[];
}

/**
 * Which operations become tools (tools, handlers and mcp artifacts; `idemgen serve`). Patterns are tags
 * (`tag:billing` or a bare tag name) or globs over the operation key / name (`POST /v1/charges*`).
 */
export interface ToolSelection {
  include?: string[];
  exclude?: string[];
  readOnly?: boolean;
  writesOnly?: boolean;
}

/** `idemgen serve --http`: OAuth resource server settings and per-user upstream credentials (flags win). */
export interface ServeConfig {
  auth?: {
    issuer?: string;
    audience?: string;
    writeScope?: string;
    subjectClaim?: string;
    clockToleranceSeconds?: number;
    /** The access tokens' accepted JOSE `typ` values (default `["at+jwt"]`, RFC 9068; `none`: no `typ`). */
    tokenTypes?: string[];
  };
  /** Security scheme name → the request header carrying each caller's own API credential. */
  upstreamHeaders?: Record<string, string>;
  /** Which writes wait for the user's yes (MCP elicitation): `off` (default), `irreversible`, `writes`. */
  confirm?: 'off' | 'irreversible' | 'writes';
}

/** What a user writes in idemgen.config.*; every field optional. */
export interface UserConfig {
  /** Files or folders; an entry `{ path, apiName }` names the API it holds (client, class and tool file names). */
  inputs?: (string | InputEntry)[];
  /** The name of the run's single API (several APIs: name them per input). */
  apiName?: string;
  out?: string;
  /** Artifact names from the emitter registry (`emit/registry.ts`); absent = every default artifact. */
  artifacts?: string[];
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
    providers?: { host: string; carrier: CarrierInput; ttlSeconds?: number; methods?: string[] }[];
  };
  /**
   * `keySource`: `model` (default) or `intent` — `idemgen serve` and the generated MCP modules hide the
   * key argument and key every write by the host's `_meta["io.idemgen/intent"]` (runtime/mcp/intent.ts).
   */
  tools?: {
    mcpHeader?: boolean;
    defaultTtlSeconds?: number;
    keySource?: 'model' | 'intent';
    formats?: ToolFileFormat[];
    /**
     * The most characters of compact JSON a tool's input schema (with its `$defs`) may take; over it, the most
     * deeply nested definitions become placeholders (emit/tools/budget.ts). Default 32,768; at least 1,024.
     */
    schemaBudget?: number;
  };
  select?: ToolSelection;
  serve?: ServeConfig;
  /** Default dedup TTL for our own stores (seconds, ≥ 24 h by default). */
  defaultTtlSeconds?: number;
}

/** Config after defaults; what classify/emit receive. `configFile` is informational only. */
export interface ResolvedConfig extends Required<Pick<UserConfig, 'out' | 'dialects'>> {
  inputs: string[];
  /** Absolute input path → apiName, from `{ path, apiName }` entries. */
  apiNames: Record<string, string>;
  apiName?: string;
  configFile?: string;
  /** The configured artifact names, or undefined for the registry's defaults. */
  artifacts?: readonly string[];
  /** Artifact-owned config sections (`config.<artifact>`), raw: each artifact reads and checked its own. */
  sections: Readonly<Record<string, unknown>>;
  owned: OwnedConfig;
  overrides: Record<string, OperationOverride>;
  sql: { schema?: string; tablePrefix: string; dedupTable: string; sagaTable: string };
  severities: Record<string, Severity | 'off'>;
  heuristics: NonNullable<UserConfig['heuristics']>;
  tools: {
    mcpHeader: boolean;
    defaultTtlSeconds: number;
    keySource: 'model' | 'intent';
    formats: ToolFileFormat[];
    schemaBudget: number;
  };
  select: ToolSelection;
  serve: ServeConfig;
  defaultTtlSeconds: number;
}

export const DEFAULT_TTL_SECONDS = 24 * 60 * 60;

/** `tools.schemaBudget` unless set: 32 KiB of compact JSON per tool input schema (decision 0024). */
export const DEFAULT_SCHEMA_BUDGET_CHARS = 32_768;
/** The smallest `tools.schemaBudget` accepted: below it nearly every definition of every tool would be cut. */
export const MIN_SCHEMA_BUDGET_CHARS = 1_024;

/** The tool files `generate` can write (`tools/<format>/…`). */
export const TOOL_FILE_FORMATS = ['mcp', 'openai', 'anthropic'] as const;
export type ToolFileFormat = (typeof TOOL_FILE_FORMATS)[number];
/**
 * Written unless `tools.formats` says otherwise: MCP only. The handlers module already carries each tool's
 * OpenAI strict parameters (its OpenAI adapters list them), and an Anthropic tool is the MCP tool with
 * `input_schema` for `inputSchema`; the files for those two are opt-in.
 */
export const DEFAULT_TOOL_FILE_FORMATS: readonly ToolFileFormat[] = ['mcp'];

export function resolveConfig(
  user: UserConfig = {},
  configFile?: string,
  sections: Readonly<Record<string, unknown>> = {},
): ResolvedConfig {
  const prefix = user.sql?.tablePrefix ?? 'idemgen_';
  return {
    configFile,
    inputs: (user.inputs ?? ['specs']).map((i) => (typeof i === 'string' ? i : i.path)),
    apiNames: Object.fromEntries(
      (user.inputs ?? []).flatMap((i) => (typeof i === 'object' && i.apiName ? [[i.path, i.apiName]] : [])),
    ),
    apiName: user.apiName,
    out: user.out ?? 'generated',
    artifacts: user.artifacts,
    sections,
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
    tools: {
      mcpHeader: user.tools?.mcpHeader ?? false,
      defaultTtlSeconds: user.tools?.defaultTtlSeconds ?? DEFAULT_TTL_SECONDS,
      keySource: user.tools?.keySource ?? 'model',
      formats: user.tools?.formats ?? [...DEFAULT_TOOL_FILE_FORMATS],
      schemaBudget: user.tools?.schemaBudget ?? DEFAULT_SCHEMA_BUDGET_CHARS,
    },
    select: user.select ?? {},
    serve: user.serve ?? {},
    defaultTtlSeconds: user.defaultTtlSeconds ?? DEFAULT_TTL_SECONDS,
  };
}
