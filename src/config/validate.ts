/**
 * Shape checks for a user config: every mistake becomes a diagnostic with a JSON pointer. Each object of the
 * config has a member table (what each key must hold), so a misspelled key is named with the closest known
 * one instead of being ignored, and no value of the wrong type reaches the classifier or an emitter.
 */
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { closest } from '../diagnostics/suggest.js';
import { appendPointer } from '../json-pointer/pointer.js';
import { checkApiName, checkInputs } from './api-names.js';
import { MIN_SCHEMA_BUDGET_CHARS, TOOL_FILE_FORMATS } from './types.js';
import { KEY_STRATEGIES, mechanismOf } from './vocabulary.js';

const DIALECTS = new Set(['postgres', 'sqlite', 'mysql']);
const STRATEGIES = new Set<string>(KEY_STRATEGIES);
const SEVERITIES = new Set(['error', 'warning', 'info', 'off']);
const CARRIER_PLACES = new Set(['header', 'body', 'form', 'query', 'argument']);
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

type Check = (value: unknown, pointer: string, out: Diagnostic[], file: string) => void;

/** What each known key of one config object must hold. */
type Members = Readonly<Record<string, Check>>;

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

function bad(out: Diagnostic[], file: string, pointer: string, message: string, hint?: string): void {
  out.push(diagnostic('invalid_config', 'error', message, { file, pointer, ...(hint ? { hint } : {}) }));
}

/**
 * A value as a message shows it. Not `String(v)`: a JSON object with its own `toString` member (`{"toString":
 * false}`) makes that throw.
 */
const shown = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? typeof v));

/** `a, b or c` (`a, b and c` with `and`). */
const either = (names: readonly string[], and = false): string =>
  names.length < 2
    ? names.join('')
    : `${names.slice(0, -1).join(', ')} ${and ? 'and' : 'or'} ${names[names.length - 1]}`;

/** An unknown key, with the known key it is closest to when one is close enough to be what was meant. */
function unknownKey(out: Diagnostic[], file: string, pointer: string, message: string, key: string, known: string[]) {
  const near = closest(key, known);
  bad(out, file, pointer, message, near === undefined ? undefined : `did you mean "${near}"?`);
}

/**
 * An object whose keys are those of `table`, each checked by its own check. `what` names it in messages
 * (`tools`, `serve.auth`); `required` keys must be present.
 */
const objectOf =
  (what: string, table: Members, required: readonly string[] = []): Check =>
  (value, pointer, out, file) => {
    const keys = Object.keys(table);
    if (!isObject(value)) {
      bad(out, file, pointer, `${what} must be an object (${keys.join(', ')})`);
      return;
    }
    for (const [key, v] of Object.entries(value)) {
      const p = appendPointer(pointer, key);
      if (!Object.hasOwn(table, key))
        unknownKey(out, file, p, `Unknown ${what} key "${key}"; expected ${either(keys)}`, key, keys);
      else table[key]!(v, p, out, file);
    }
    const missing = required.filter((k) => value[k] === undefined);
    if (missing.length > 0)
      bad(
        out,
        file,
        pointer,
        `${what} needs ${either(
          missing.map((k) => `"${k}"`),
          true,
        )}`,
      );
  };

/** An array of strings, each one of `allowed` when given; none empty (a pattern, a name or a word is never ""). */
const stringArray =
  (allowed?: Set<string>): Check =>
  (value, pointer, out, file) => {
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
      bad(out, file, pointer, `${pointer} must be an array of strings`);
      return;
    }
    value.forEach((v: string, i) => {
      if (allowed && !allowed.has(v))
        bad(out, file, `${pointer}/${i}`, `Unknown value "${v}"; expected one of ${[...allowed].join(', ')}`);
      else if (v === '') bad(out, file, `${pointer}/${i}`, `${pointer}/${i} must not be empty`);
    });
  };

const positiveInt: Check = (value, pointer, out, file) => {
  if (!Number.isInteger(value) || (value as number) <= 0)
    bad(out, file, pointer, `${pointer} must be a positive integer`);
};

const string: Check = (value, pointer, out, file) => {
  if (typeof value !== 'string' || value.length === 0) bad(out, file, pointer, `${pointer} must be a non-empty string`);
};

/** Any string, the empty one too (a table prefix may be nothing). */
const text: Check = (value, pointer, out, file) => {
  if (typeof value !== 'string') bad(out, file, pointer, `${pointer} must be a string`);
};

const boolean: Check = (value, pointer, out, file) => {
  if (typeof value !== 'boolean') bad(out, file, pointer, `${pointer} must be true or false`);
};

/** One of a few words; `message` says which. */
const word =
  (words: ReadonlySet<unknown>, message: string): Check =>
  (value, pointer, out, file) => {
    if (!words.has(value)) bad(out, file, pointer, message);
  };

/** HTTP method names in any case (`POST`, `post`). */
const methods: Check = (value, pointer, out, file) => {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    bad(out, file, pointer, `${pointer} must be an array of HTTP methods`);
    return;
  }
  value.forEach((v: string, i) => {
    if (!HTTP_METHODS.has(v.toLowerCase()))
      bad(out, file, `${pointer}/${i}`, `Unknown HTTP method "${v}"; expected one of ${[...HTTP_METHODS].join(', ')}`);
  });
};

const arrayOf =
  (item: Check, what: string): Check =>
  (value, pointer, out, file) => {
    if (!Array.isArray(value)) {
      bad(out, file, pointer, `${pointer} must be an array of ${what}`);
      return;
    }
    for (const [i, v] of value.entries()) item(v, `${pointer}/${i}`, out, file);
  };

/** Where an idempotency key travels, as a user writes it (vocabulary.ts `CarrierInput`). */
const carrier = objectOf(
  'carrier',
  {
    in: word(CARRIER_PLACES, `carrier "in" must be ${either([...CARRIER_PLACES].map((p) => `"${p}"`))}`),
    name: string,
    path: stringArray(),
    maxLength: positiveInt,
    required: boolean,
    firstSent: string,
  },
  ['in', 'name'],
);

const PLAN_SHAPES = new Set(['natural-key', 'client-reference', 'refused-duplicate']);

const verificationMembers = objectOf('verification', {
  shape: () => undefined,
  read: string,
  args: (v, p, out, file) => {
    if (!isObject(v) || Object.values(v).some((x) => typeof x !== 'string'))
      bad(out, file, p, `${p} must map path parameters to "path.NAME", "query.NAME" or "body.FIELD"`);
  },
  stamp: string,
  filter: string,
  template: string,
  items: (v, p, out, file) => {
    if (typeof v !== 'string') bad(out, file, p, `${p} must be a string`);
  },
  statuses: (v, p, out, file) => {
    if (!Array.isArray(v) || v.some((x) => !Number.isInteger(x)))
      bad(out, file, p, `${p} must be a list of HTTP status codes`);
  },
});

function checkVerification(v: unknown, p: string, out: Diagnostic[], file: string): void {
  if (v === false) return;
  if (!isObject(v)) {
    bad(out, file, p, `${p} must be false or an object with a shape`);
    return;
  }
  if (!PLAN_SHAPES.has(v.shape as string))
    bad(
      out,
      file,
      `${p}/shape`,
      `Unknown verification shape "${shown(v.shape)}" (natural-key, client-reference or refused-duplicate)`,
    );
  else if (v.shape !== 'refused-duplicate' && v.read === undefined)
    bad(out, file, `${p}/read`, `${p}/read must name the GET operation that looks the call up`);
  verificationMembers(v, p, out, file);
}

const override = objectOf('override', {
  effect: word(new Set(['read', 'write']), 'effect must be "read" or "write"'),
  mechanism: (v, p, out, file) => {
    if (typeof v !== 'string' || mechanismOf(v) === undefined)
      bad(
        out,
        file,
        p,
        `Unknown mechanism "${shown(v)}" (one of native-key, dedup-table, content-address, unique-insert, saga, method-idempotent, fail-closed, none; OP-1…OP-5 also work)`,
      );
  },
  carrier: (v, p, out, file) => {
    if (v !== null) carrier(v, p, out, file);
  },
  keyStrategy: (v, p, out, file) => {
    if (!STRATEGIES.has(v as string)) bad(out, file, p, `Unknown key strategy "${shown(v)}"`);
  },
  ttlSeconds: positiveInt,
  timeoutMs: positiveInt,
  compensation: string,
  table: string,
  impact: word(new Set(['physical', 'financial']), 'impact must be "physical" or "financial"'),
  verification: checkVerification,
});

function checkOverrides(value: unknown, pointer: string, out: Diagnostic[], file: string): void {
  if (!isObject(value)) {
    bad(out, file, pointer, 'overrides must be an object keyed by operation key');
    return;
  }
  for (const [op, o] of Object.entries(value)) {
    const p = appendPointer(pointer, op);
    if (!isObject(o)) bad(out, file, p, `override for "${op}" must be an object`);
    else override(o, p, out, file);
  }
}

function checkSeverities(value: unknown, pointer: string, out: Diagnostic[], file: string): void {
  if (!isObject(value)) {
    bad(out, file, pointer, 'severities must be an object of rule id → severity');
    return;
  }
  for (const [rule, sev] of Object.entries(value)) {
    if (!SEVERITIES.has(sev as string))
      bad(out, file, appendPointer(pointer, rule), `Severity for ${rule} must be error, warning, info or off`);
  }
}

const SELECT_KEYS = ['include', 'exclude', 'readOnly', 'writesOnly'];

function checkSelect(value: unknown, pointer: string, out: Diagnostic[], file: string): void {
  if (!isObject(value)) {
    bad(out, file, pointer, `select must be an object (${SELECT_KEYS.join(', ')})`);
    return;
  }
  objectOf('select', { include: stringArray(), exclude: stringArray(), readOnly: boolean, writesOnly: boolean })(
    value,
    pointer,
    out,
    file,
  );
  if (value.readOnly === true && value.writesOnly === true)
    bad(
      out,
      file,
      `${pointer}/writesOnly`,
      'select.readOnly and select.writesOnly exclude each other (no tool would be left)',
    );
}

const tools = objectOf('tools', {
  mcpHeader: boolean,
  defaultTtlSeconds: positiveInt,
  keySource: (v, p, out, file) => {
    if (v !== 'model' && v !== 'intent') bad(out, file, p, `${p} must be "model" or "intent"`);
  },
  formats: stringArray(new Set(TOOL_FILE_FORMATS)),
  schemaBudget: (v, p, out, file) => {
    if (!Number.isInteger(v) || (v as number) < MIN_SCHEMA_BUDGET_CHARS)
      bad(
        out,
        file,
        p,
        `${p} must be a whole number of characters, at least ${MIN_SCHEMA_BUDGET_CHARS} (default 32768)`,
      );
  },
});

const serveAuth = objectOf('serve.auth', {
  issuer: string,
  audience: string,
  writeScope: string,
  subjectClaim: string,
  clockToleranceSeconds: (w, p, out, file) => {
    if (!Number.isInteger(w) || (w as number) < 0 || (w as number) > 300)
      bad(out, file, p, `${p} must be a whole number of seconds from 0 to 300`);
  },
  tokenTypes: (w, p, out, file) => {
    if (!Array.isArray(w) || w.length === 0 || !w.every((t) => typeof t === 'string' && t !== ''))
      bad(out, file, p, `${p} must be a non-empty array of JOSE typ values (e.g. ["at+jwt", "JWT"])`);
  },
});

/** `serve`: shapes only; `idemgen serve` checks the URLs and words themselves when it starts. */
const serve = objectOf('serve', {
  auth: serveAuth,
  upstreamHeaders: (v, p, out, file) => {
    if (!isObject(v)) bad(out, file, p, 'serve.upstreamHeaders must map a security scheme name to a header name');
    else for (const [k, w] of Object.entries(v)) string(w, appendPointer(p, k), out, file);
  },
  confirm: word(new Set(['off', 'irreversible', 'writes']), 'serve.confirm must be "off", "irreversible" or "writes"'),
});

const TOP: Members = {
  $schema: string,
  $comment: text,
  inputs: (value, pointer, out, file) => void out.push(...checkInputs(value, pointer, file)),
  apiName: (value, pointer, out, file) => void out.push(...checkApiName(value, pointer, file)),
  out: string,
  // Checked against the emitter registry by `validateUserConfig`.
  artifacts: stringArray(),
  owned: objectOf('owned', { hosts: stringArray(), servers: stringArray(), paths: stringArray(), tags: stringArray() }),
  overrides: checkOverrides,
  dialects: stringArray(DIALECTS),
  sql: objectOf('sql', { schema: string, tablePrefix: text, dedupTable: string, sagaTable: string }),
  severities: checkSeverities,
  heuristics: objectOf('heuristics', {
    writeVerbs: stringArray(),
    readVerbs: stringArray(),
    keyHeaders: stringArray(),
    keyFields: stringArray(),
    providers: arrayOf(
      objectOf('provider', { host: string, carrier, ttlSeconds: positiveInt, methods }, ['host', 'carrier']),
      'providers ({ host, carrier, ttlSeconds?, methods? })',
    ),
  }),
  tools,
  select: checkSelect,
  serve,
  defaultTtlSeconds: positiveInt,
};

/** What an input document given as the config is, by the keys no config has; undefined for anything else. */
function inputShape(raw: Record<string, unknown>): string | undefined {
  if (typeof raw.openapi === 'string') return `an OpenAPI ${raw.openapi} document`;
  if (typeof raw.swagger === 'string') return `a Swagger ${raw.swagger} document`;
  if (Array.isArray(raw.tools) && Object.keys(raw).length <= 2) return 'a tool list';
  return undefined;
}

export function validateUserConfig(raw: unknown, file: string, ext?: ConfigExtensions): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isObject(raw)) {
    bad(out, file, '', 'The config must be an object');
    return out;
  }
  const known = [...Object.keys(TOP), ...Object.keys(ext?.sections ?? {})];
  // A spec or tool list given as the config (`--config api.yaml`): one line that says so, not one per key.
  const input = inputShape(raw);
  if (input !== undefined) {
    bad(out, file, '', `This is ${input}, not an idemgen config`, 'pass it as an input: idemgen generate <file>');
    return out;
  }
  for (const [key, value] of Object.entries(raw)) {
    const pointer = appendPointer('', key);
    if (key === 'artifacts') {
      stringArray(ext === undefined ? undefined : new Set(ext.artifacts))(value, pointer, out, file);
      continue;
    }
    const section = ext?.sections[key];
    if (section !== undefined && !Object.hasOwn(TOP, key)) {
      for (const p of section(value, pointer)) bad(out, file, p.pointer, p.message);
      continue;
    }
    if (!Object.hasOwn(TOP, key)) unknownKey(out, file, pointer, `Unknown config key "${key}"`, key, known);
    else TOP[key]!(value, pointer, out, file);
  }
  return out;
}
