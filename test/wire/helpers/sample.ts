/**
 * Seeded arguments for one tool: json-schema-faker over the tool's own input schema (formats, patterns,
 * enums, oneOf, required), checked with the runtime's validator so the harness only sends what the tool
 * itself accepts. The same seed gives the same arguments on every machine.
 */
import { generateSync } from 'json-schema-faker';
import type { ToolBinding } from '../../../packages/runtime/src/tools/index.js';
import { validateArguments } from '../../../packages/runtime/src/tools/validate.js';

type Obj = Record<string, unknown>;

const TRIES = 8;

/**
 * The input schema the sampler reads: a path parameter's string is at least one character. An empty
 * value leaves an empty segment (`/orgs//teams`) that no route matches and that can move the call to
 * another operation (`/secrets/` → the list); the runtime refuses it before sending,
 * so it is no sample of a call that should reach the API.
 */
function samplingSchema(binding: ToolBinding): Obj {
  const schema = binding.inputSchema as Obj;
  const props = { ...((schema.properties as Record<string, Obj> | undefined) ?? {}) };
  for (const r of binding.routes) {
    const p = props[r.property];
    if (r.in === 'path' && p !== undefined && p.minLength === undefined) props[r.property] = { ...p, minLength: 1 };
  }
  return { ...schema, properties: props };
}

/** Valid arguments, or a line saying why none were found within the tries. */
export async function sampleArguments(binding: ToolBinding, seed: number): Promise<Obj | string> {
  const schema = samplingSchema(binding);
  let last = '';
  for (let t = 0; t < TRIES; t++) {
    let value: unknown;
    try {
      value = generateSync(schema as never, {
        seed: seed * 31 + t,
        // arrays of one or two items: an empty one goes out in a form body as `name=` (Stripe's empty list),
        // which a validator decoding the form reads as the string "", not as []
        minItems: 1,
        refDepthMax: 12,
        maxItems: 2,
        optionalsProbability: t < TRIES / 2 ? 0.5 : 0,
        failOnInvalidTypes: false,
      });
    } catch (err) {
      last = `the sampler failed: ${err instanceof Error ? err.message : String(err)}`;
      continue;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      last = 'the sampler produced no object';
      continue;
    }
    const issues = await validateArguments(binding, value);
    if (issues.length === 0) return value as Obj;
    last = `no sample passed the tool's own schema: ${issues
      .slice(0, 3)
      .map((i) => `${i.pointer || '/'} ${i.message}`)
      .join('; ')}`;
  }
  return last;
}
