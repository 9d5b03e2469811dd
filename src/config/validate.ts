/** Shape checks for a user config: every mistake becomes a diagnostic with a JSON pointer. */
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { appendPointer } from '../json-pointer/pointer.js';
import { checkApiName, checkInputs } from './api-names.js';
import { TOOL_FILE_FORMATS } from './types.js';
import { KEY_STRATEGIES, mechanismOf } from './vocabulary.js';

const TOP_KEYS = new Set([
  '$schema',
  '$comment',
  'inputs',
  'apiName',
  'out',
  'artifacts',
  'owned',
  'overrides',
  'dialects',
  'sql',
  'severities',
  'heuristics',
  'tools',
  'select',
  'serve',
  'defaultTtlSeconds',
]);
const SELECT_KEYS = new Set(['include', 'exclude', 'readOnly', 'writesOnly']);
const DIALECTS = new Set(['postgres', 'sqlite', 'mysql']);
const STRATEGIES = new Set<string>(KEY_STRATEGIES);
const SEVERITIES = new Set(['error', 'warning', 'info', 'off']);

type Check = (value: unknown, pointer: string, out: Diagnostic[], file: string) => void;

/** A problem in a config section, at a JSON pointer into the config file. */
export interface OptionProblem {
  pointer: string;
  message: string;
}

/**
 * What the config layer learns from above it (the emitter registry), so it never imports it: the known
 * artifact names and a check per artifact-owned top-level section (`config.<artifact>`).
 */
export interface ConfigExtensions {
  artifacts: readonly string[];
  sections: Readonly<Record<string, (value: unknown, pointer: string) => OptionProblem[]>>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function bad(out: Diagnostic[], file: string, pointer: string, message: string): void {
  out.push(diagnostic('invalid_config', 'error', message, { file, pointer }));
}

const stringArray =
  (allowed?: Set<string>): Check =>
  (value, pointer, out, file) => {
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
      bad(out, file, pointer, `${pointer} must be an array of strings`);
      return;
    }
    value.forEach((v, i) => {
      if (allowed && !allowed.has(v))
        bad(out, file, `${pointer}/${i}`, `Unknown value "${v}"; expected one of ${[...allowed].join(', ')}`);
    });
  };

const positiveInt: Check = (value, pointer, out, file) => {
  if (!Number.isInteger(value) || (value as number) <= 0)
    bad(out, file, pointer, `${pointer} must be a positive integer`);
};

const string: Check = (value, pointer, out, file) => {
  if (typeof value !== 'string' || value.length === 0) bad(out, file, pointer, `${pointer} must be a non-empty string`);
};

function checkOverrides(value: unknown, pointer: string, out: Diagnostic[], file: string): void {
  if (!isObject(value)) {
    bad(out, file, pointer, 'overrides must be an object keyed by operation key');
    return;
  }
  for (const [op, o] of Object.entries(value)) {
    const p = appendPointer(pointer, op);
    if (!isObject(o)) {
      bad(out, file, p, `override for "${op}" must be an object`);
      continue;
    }
    if (o.mechanism !== undefined && mechanismOf(String(o.mechanism)) === undefined)
      bad(
        out,
        file,
        `${p}/mechanism`,
        `Unknown mechanism "${String(o.mechanism)}" (one of native-key, dedup-table, content-address, unique-insert, saga, method-idempotent, fail-closed, none; OP-1…OP-5 also work)`,
      );
    if (o.keyStrategy !== undefined && !STRATEGIES.has(String(o.keyStrategy)))
      bad(out, file, `${p}/keyStrategy`, `Unknown key strategy "${String(o.keyStrategy)}"`);
    if (o.effect !== undefined && o.effect !== 'read' && o.effect !== 'write')
      bad(out, file, `${p}/effect`, 'effect must be "read" or "write"');
    if (o.ttlSeconds !== undefined) positiveInt(o.ttlSeconds, `${p}/ttlSeconds`, out, file);
    if (o.timeoutMs !== undefined) positiveInt(o.timeoutMs, `${p}/timeoutMs`, out, file);
    if (o.table !== undefined) string(o.table, `${p}/table`, out, file);
    if (o.compensation !== undefined) string(o.compensation, `${p}/compensation`, out, file);
    if (o.impact !== undefined && o.impact !== 'physical' && o.impact !== 'financial')
      bad(out, file, `${p}/impact`, 'impact must be "physical" or "financial"');
    if (o.verification !== undefined) checkVerification(o.verification, `${p}/verification`, out, file);
  }
}

const PLAN_SHAPES = new Set(['natural-key', 'client-reference', 'refused-duplicate']);

function checkVerification(v: unknown, p: string, out: Diagnostic[], file: string): void {
  if (v === false) return;
  if (!isObject(v)) {
    bad(out, file, p, `${p} must be false or an object with a shape`);
    return;
  }
  if (!PLAN_SHAPES.has(String(v.shape)))
    bad(
      out,
      file,
      `${p}/shape`,
      `Unknown verification shape "${String(v.shape)}" (natural-key, client-reference or refused-duplicate)`,
    );
  else if (v.shape !== 'refused-duplicate' && v.read === undefined)
    bad(out, file, `${p}/read`, `${p}/read must name the GET operation that looks the call up`);
  for (const k of ['read', 'stamp', 'filter', 'template'] as const)
    if (v[k] !== undefined) string(v[k], `${p}/${k}`, out, file);
  if (v.items !== undefined && typeof v.items !== 'string') bad(out, file, `${p}/items`, `${p}/items must be a string`);
  if (v.args !== undefined && (!isObject(v.args) || Object.values(v.args).some((x) => typeof x !== 'string')))
    bad(out, file, `${p}/args`, `${p}/args must map path parameters to "path.NAME", "query.NAME" or "body.FIELD"`);
  if (v.statuses !== undefined && (!Array.isArray(v.statuses) || v.statuses.some((x) => !Number.isInteger(x))))
    bad(out, file, `${p}/statuses`, `${p}/statuses must be a list of HTTP status codes`);
}

function checkSeverities(value: unknown, pointer: string, out: Diagnostic[], file: string): void {
  if (!isObject(value)) {
    bad(out, file, pointer, 'severities must be an object of rule id → severity');
    return;
  }
  for (const [rule, sev] of Object.entries(value)) {
    if (!SEVERITIES.has(String(sev)))
      bad(out, file, `${pointer}/${rule}`, `Severity for ${rule} must be error, warning, info or off`);
  }
}

function checkSelect(value: unknown, pointer: string, out: Diagnostic[], file: string): void {
  if (!isObject(value)) {
    bad(out, file, pointer, 'select must be an object (include, exclude, readOnly, writesOnly)');
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    const p = `${pointer}/${key}`;
    if (!SELECT_KEYS.has(key))
      bad(out, file, p, `Unknown select key "${key}"; expected include, exclude, readOnly or writesOnly`);
    else if (key === 'include' || key === 'exclude') stringArray()(v, p, out, file);
    else if (typeof v !== 'boolean') bad(out, file, p, `${p} must be true or false`);
  }
  if (value.readOnly === true && value.writesOnly === true)
    bad(
      out,
      file,
      `${pointer}/writesOnly`,
      'select.readOnly and select.writesOnly exclude each other (no tool would be left)',
    );
}

function checkTools(value: unknown, pointer: string, out: Diagnostic[], file: string): void {
  if (!isObject(value)) return;
  if (value.keySource !== undefined && value.keySource !== 'model' && value.keySource !== 'intent')
    bad(out, file, `${pointer}/keySource`, `${pointer}/keySource must be "model" or "intent"`);
  if (value.formats !== undefined)
    stringArray(new Set(TOOL_FILE_FORMATS))(value.formats, `${pointer}/formats`, out, file);
}

const SERVE_AUTH_KEYS = new Set([
  'issuer',
  'audience',
  'writeScope',
  'subjectClaim',
  'clockToleranceSeconds',
  'tokenTypes',
]);

/** `serve`: shapes only; `idemgen serve` checks the URLs and words themselves when it starts. */
function checkServe(value: unknown, pointer: string, out: Diagnostic[], file: string): void {
  if (!isObject(value)) {
    bad(out, file, pointer, 'serve must be an object (auth, upstreamHeaders, confirm)');
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    const p = `${pointer}/${key}`;
    if (key === 'auth') {
      if (!isObject(v)) {
        bad(out, file, p, 'serve.auth must be an object (issuer, audience, writeScope, subjectClaim)');
        continue;
      }
      for (const [k, w] of Object.entries(v)) {
        if (!SERVE_AUTH_KEYS.has(k))
          bad(out, file, `${p}/${k}`, `Unknown serve.auth key "${k}"; expected ${[...SERVE_AUTH_KEYS].join(', ')}`);
        else if (k === 'clockToleranceSeconds') {
          if (!Number.isInteger(w) || (w as number) < 0 || (w as number) > 300)
            bad(out, file, `${p}/${k}`, `${p}/${k} must be a whole number of seconds from 0 to 300`);
        } else if (k === 'tokenTypes') {
          if (!Array.isArray(w) || w.length === 0 || !w.every((t) => typeof t === 'string' && t !== ''))
            bad(
              out,
              file,
              `${p}/${k}`,
              `${p}/${k} must be a non-empty array of JOSE typ values (e.g. ["at+jwt", "JWT"])`,
            );
        } else string(w, `${p}/${k}`, out, file);
      }
    } else if (key === 'upstreamHeaders') {
      if (!isObject(v)) bad(out, file, p, 'serve.upstreamHeaders must map a security scheme name to a header name');
      else for (const [k, w] of Object.entries(v)) string(w, `${p}/${k}`, out, file);
    } else if (key === 'confirm') {
      if (v !== 'off' && v !== 'irreversible' && v !== 'writes')
        bad(out, file, p, 'serve.confirm must be "off", "irreversible" or "writes"');
    } else bad(out, file, p, `Unknown serve key "${key}"; expected auth, upstreamHeaders or confirm`);
  }
}

const CHECKS: Record<string, Check> = {
  select: checkSelect,
  tools: checkTools,
  serve: checkServe,
  inputs: (value, pointer, out, file) => void out.push(...checkInputs(value, pointer, file)),
  apiName: (value, pointer, out, file) => void out.push(...checkApiName(value, pointer, file)),
  out: string,
  dialects: stringArray(DIALECTS),
  overrides: checkOverrides,
  severities: checkSeverities,
  defaultTtlSeconds: positiveInt,
};

export function validateUserConfig(raw: unknown, file: string, ext?: ConfigExtensions): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isObject(raw)) {
    bad(out, file, '', 'The config must be an object');
    return out;
  }
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'artifacts') {
      stringArray(ext === undefined ? undefined : new Set(ext.artifacts))(value, '/artifacts', out, file);
      continue;
    }
    const section = ext?.sections[key];
    if (section !== undefined && !TOP_KEYS.has(key)) {
      for (const p of section(value, `/${key}`)) bad(out, file, p.pointer, p.message);
      continue;
    }
    if (!TOP_KEYS.has(key)) {
      bad(out, file, `/${key}`, `Unknown config key "${key}"`);
      continue;
    }
    CHECKS[key]?.(value, `/${key}`, out, file);
    if (['owned', 'sql', 'heuristics', 'tools'].includes(key) && !isObject(value))
      bad(out, file, `/${key}`, `${key} must be an object`);
  }
  return out;
}
