/**
 * The stable diagnostic codes of the load and IR stages, with their default severity and what
 * they mean. Codes never change once published (reports, SARIF rule ids and CI gates key on them).
 */
import type { Severity } from './diagnostic.js';

export interface CodeInfo {
  severity: Severity;
  summary: string;
}

export const LOAD_CODES = {
  input_not_found: { severity: 'error', summary: 'an input path (or a referenced part) does not exist' },
  unreadable_file: {
    severity: 'error',
    summary: 'a file or directory cannot be read (permissions, broken symlink, FIFO/device)',
  },
  empty_file: {
    severity: 'error',
    summary: 'the file is empty or whitespace only (a warning when found by a directory scan)',
  },
  invalid_json: { severity: 'error', summary: 'JSON syntax error; line/col point at it' },
  invalid_yaml: { severity: 'error', summary: 'YAML syntax error; line/col point at it' },
  unrecognized_input: {
    severity: 'error',
    summary: 'a file named explicitly is neither an OpenAPI/Swagger document nor a tool list',
  },
  unrecognized_file: {
    severity: 'info',
    summary: 'a file found in a directory is neither a spec nor a tool list, and no spec references it; skipped',
  },
  unsupported_version: { severity: 'error', summary: 'Swagger 1.x, OpenAPI 4 or another version we do not read' },
  unresolved_ref: {
    severity: 'warning',
    summary:
      'a $ref does not resolve (missing file, fragment or in-document target); that schema becomes `unknown` in clients and unconstrained in tool schemas',
  },
  remote_ref: {
    severity: 'warning',
    summary: 'an http(s) $ref is not fetched (generation never uses the network); treated like an unresolved ref',
  },
  ref_cycle: {
    severity: 'warning',
    summary: 'a chain of $refs leads back to itself without reaching a schema; treated like an unresolved ref',
  },
  document_too_deep: { severity: 'error', summary: 'nesting deep enough to exhaust the stack' },
  no_input_document: {
    severity: 'error',
    summary:
      'the inputs hold no spec or tool list (an empty or missing folder, a missing file, only other files): nothing is written',
  },
} as const satisfies Record<string, CodeInfo>;

export const IR_CODES = {
  duplicate_operation_id: {
    severity: 'warning',
    summary: 'two operations share an operationId; later ones (by key) get a suffixed name',
  },
  operation_name_collision: {
    severity: 'warning',
    summary:
      'two operations map to the same generated name; the one with a verbatim operationId keeps it, the other is renamed (both are named)',
  },
  invalid_paths: { severity: 'warning', summary: '`paths` is not an object' },
  invalid_path_item: { severity: 'warning', summary: 'a path item is not an object; ignored' },
  invalid_operation: { severity: 'warning', summary: 'an HTTP method entry is not an Operation Object; ignored' },
  invalid_parameter: { severity: 'warning', summary: 'a parameter without a valid name/in; ignored' },
  invalid_document: { severity: 'error', summary: 'the document root is not an object' },
  invalid_tool: {
    severity: 'warning',
    summary: 'an item of a tool list is not a tool definition in a known format; ignored',
  },
  duplicate_tool_name: {
    severity: 'warning',
    summary: 'two tools share a name; the later one gets the key `tool:<name>#<n>`',
  },
  mixed_tool_formats: { severity: 'warning', summary: 'a tool list mixes formats (e.g. MCP and Anthropic items)' },
  body_to_query: {
    severity: 'info',
    summary:
      'a GET or HEAD operation declares a request body; its fields are sent in the query string (bracket style, `expand[0]=a`), since these methods carry no body',
  },
} as const satisfies Record<string, CodeInfo>;

/** `idemgen validate` (besides the load codes of its inputs). */
export const VALIDATE_CODES = {
  spec_schema_violation: {
    severity: 'error',
    summary: 'the document breaks the official OpenAPI 2.0/3.0/3.1 JSON schema at this place',
  },
  spec_semantic_error: {
    severity: 'error',
    summary: 'a Swagger 2.0 rule the schema cannot express (path parameters, duplicate operationIds, body parameters)',
  },
  spec_ref_error: { severity: 'error', summary: 'the validator could not follow a $ref the loader did not report' },
  spec_not_validated: {
    severity: 'error',
    summary: 'the validator refused the document as a whole (e.g. an OpenAPI version it does not know)',
  },
  no_openapi_input: {
    severity: 'error',
    summary: 'no input is an OpenAPI or Swagger document (tool lists have no official schema)',
  },
} as const satisfies Record<string, CodeInfo>;

/** The config file's own codes (config/validate.ts, classify/config-findings.ts). */
export const CONFIG_CODES = {
  invalid_config: {
    severity: 'error',
    summary:
      'the config file does not parse, or a key is unknown (the closest known one is named) or holds a value of the wrong kind',
  },
  severity_rule_unknown: {
    severity: 'warning',
    summary: 'an entry of config severities names no rule whose severity can be set, so it changes nothing',
  },
  override_matches_nothing: {
    severity: 'warning',
    summary:
      'an entry of config overrides names no operation of the inputs (by operation key, operationId, tool name or client method name), so it changes nothing',
  },
} as const satisfies Record<string, CodeInfo>;

/** The load codes of a `$ref` that could not be followed: warnings that `generate --strict` refuses. */
export const BROKEN_REF_CODES: ReadonlySet<string> = new Set<LoadCode>(['unresolved_ref', 'remote_ref', 'ref_cycle']);

type LoadCode = keyof typeof LOAD_CODES;
