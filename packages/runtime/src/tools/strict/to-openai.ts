/**
 * OpenAI Chat Completions tools, strict mode:
 * `[{ type: 'function', function: { name, description, parameters, strict: true } }]`. The one converter:
 * the tools emitter writes `tools/openai/<api>.tools.json` with it, and the runtime's OpenAI adapters derive
 * the same form from a binding's input schema when they are asked (strict/of-binding.ts).
 */
import { setOwn } from './own.js';
import { KEY_CHARS, KEY_MIN_LENGTH } from '../key-argument.js';
import { strictDef } from './strict-defs.js';
import { fitLimits } from './strict-limits.js';
import { strictNode, type StrictContext } from './strict.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Strict mode has no minLength/maxLength; the key's length bounds move into its pattern. */
function strictKey(schema: Obj): Obj {
  const { minLength, maxLength, pattern: _pattern, ...rest } = schema;
  const min = typeof minLength === 'number' ? minLength : KEY_MIN_LENGTH;
  const max = typeof maxLength === 'number' ? maxLength : '';
  return { ...rest, type: 'string', pattern: `^${KEY_CHARS}{${min},${max}}$` };
}

/** Strict mode cannot say "any further properties": a free-form root gets them as one JSON-encoded argument. */
const EXTRA_PROPERTY = 'additional_properties';

function addFreeFormExtras(root: Obj, source: Obj, ctx: StrictContext): void {
  const extra = source.additionalProperties;
  const props = root.properties as Obj;
  if (extra === undefined || extra === false || EXTRA_PROPERTY in props) return;
  ctx.encoded.push(`/properties/${EXTRA_PROPERTY}`);
  props[EXTRA_PROPERTY] = {
    type: ['string', 'null'],
    description: 'Any further properties of this call, as one JSON-encoded object (null for none).',
  };
  (root.required as string[]).push(EXTRA_PROPERTY);
}

/**
 * The root of a strict schema must be an object (never `anyOf`); `$defs` are strictified once each.
 * The key property is set last, from its own schema (its length bounds become the pattern).
 */
function toStrictParameters(spec: StrictSource, ctx: StrictContext): Obj {
  const { $defs, ...rootSrc } = spec.inputSchema;
  const defs = isObj($defs) ? $defs : {};
  ctx.defs = defs;
  const sourceProps: Obj = { ...(isObj(rootSrc.properties) ? rootSrc.properties : {}) };
  const keySchema = spec.keyProperty !== undefined ? (sourceProps[spec.keyProperty] as Obj) : undefined;
  if (spec.keyProperty !== undefined) delete sourceProps[spec.keyProperty];
  let root = strictNode({ ...rootSrc, type: 'object', properties: sourceProps, additionalProperties: false }, '', ctx);
  if (root.type !== 'object' || !isObj(root.properties)) {
    // A root `anyOf`/`allOf` strict mode cannot take: the tool keeps only what we add (the key).
    ctx.encoded.push('');
    root = { type: 'object', properties: {}, required: [], additionalProperties: false };
  }
  addFreeFormExtras(root, rootSrc, ctx);
  if (spec.keyProperty !== undefined) {
    (root.properties as Obj)[spec.keyProperty] = strictKey(keySchema ?? {});
    (root.required as string[]).push(spec.keyProperty);
  }
  const strictDefs: Obj = {};
  for (const name of Object.keys(defs).sort()) setOwn(strictDefs, name, strictDef(defs[name], name, ctx));
  if (Object.keys(strictDefs).length > 0) root.$defs = strictDefs;
  return root;
}

/** What the strict form is made from: a tool's MCP input schema (with its `$defs`) and its key property. */
export interface StrictSource {
  inputSchema: Obj;
  keyProperty?: string;
  description: string;
}

/** A tool's strict `parameters`, the pointers of values sent as JSON text, and the limits it exceeded. */
export interface StrictForm {
  parameters: Obj;
  encoded: string[];
  limits: string[];
}

/** `removed` collects the keywords strict mode does not support (the emitter reports them). */
export function toStrictForm(spec: StrictSource, removed: Set<string> = new Set()): StrictForm {
  const ctx: StrictContext = { defs: {}, encoded: [], removed };
  const parameters = toStrictParameters(spec, ctx);
  const limits = fitLimits(parameters, ctx, spec.keyProperty);
  return { parameters, encoded: ctx.encoded, limits };
}

/** One strict OpenAI tool, with what had to be degraded (for the per-API diagnostics, degrade.ts). */
export interface OpenAiTool {
  tool: Obj;
  /** Pointers (inside the parameters) of values sent as JSON-encoded strings. */
  encoded: string[];
  /** Limits the schema exceeded before its largest arguments were encoded. */
  limits: string[];
}

export function toOpenAiTool(spec: StrictSource, name: string, removed: Set<string>): OpenAiTool {
  const { parameters, encoded, limits } = toStrictForm(spec, removed);
  const tool = { type: 'function', function: { name, description: spec.description, parameters, strict: true } };
  return { tool, encoded, limits };
}
