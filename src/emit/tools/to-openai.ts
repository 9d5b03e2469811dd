/**
 * OpenAI Chat Completions tools, strict mode:
 * `[{ type: 'function', function: { name, description, parameters, strict: true } }]`.
 */
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { KEY_CHARS, KEY_MIN_LENGTH } from './idempotency-key.js';
import { fitLimits } from './strict-limits.js';
import { strictNode, type StrictContext } from './strict.js';
import type { ToolSpec } from './tool-spec.js';

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
export const EXTRA_PROPERTY = 'additional_properties';

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
export function toStrictParameters(spec: ToolSpec, ctx: StrictContext): Obj {
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
  for (const name of Object.keys(defs).sort()) strictDefs[name] = strictNode(defs[name], `/$defs/${name}`, ctx);
  if (Object.keys(strictDefs).length > 0) root.$defs = strictDefs;
  return root;
}

function describeDegrade(spec: ToolSpec, encodedPaths: string[], limits: string[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  const where = { file: spec.source.file, pointer: spec.source.pointer };
  if (limits.length > 0) {
    out.push(diagnostic('tools_openai_limit_exceeded', 'warning', `${spec.key}: the OpenAI strict schema exceeds ${limits.join(', ')}; its largest arguments are sent as JSON-encoded strings.`, where));
  }
  if (encodedPaths.length > 0) {
    const shown = encodedPaths.slice(0, 5).join(', ') + (encodedPaths.length > 5 ? `, … (${encodedPaths.length} in all)` : '');
    out.push(diagnostic('tools_openai_json_encoded', 'warning', `${spec.key}: OpenAI strict mode cannot express ${shown}; those values are JSON-encoded strings in the OpenAI tool.`, { ...where, hint: 'Give the schema explicit properties (no free-form objects or untyped values) to keep it structured.' }));
  }
  return out;
}

export interface OpenAiResult {
  tools: Obj[];
  diagnostics: Diagnostic[];
  removed: Set<string>;
}

export function toOpenAi(specs: ToolSpec[], names: Map<string, string>): OpenAiResult {
  const diagnostics: Diagnostic[] = [];
  const removed = new Set<string>();
  const tools = specs.map((spec) => {
    const ctx: StrictContext = { defs: {}, encoded: [], removed };
    const parameters = toStrictParameters(spec, ctx);
    const limits = fitLimits(parameters, ctx, spec.keyProperty);
    diagnostics.push(...describeDegrade(spec, ctx.encoded, limits));
    return {
      type: 'function',
      function: { name: names.get(spec.key), description: spec.description, parameters, strict: true },
    };
  });
  return { tools, diagnostics, removed };
}
