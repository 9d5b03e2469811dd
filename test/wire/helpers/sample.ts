/**
 * Seeded arguments for one tool: json-schema-faker over the tool's own input schema (formats, patterns,
 * enums, oneOf, required), checked with the runtime's validator so the harness only sends what the tool
 * itself accepts. The same seed gives the same arguments on every machine.
 */
import { generateSync } from 'json-schema-faker';
import type { ToolBinding } from '../../../src/runtime/tools/index.js';
import { validateArguments } from '../../../src/runtime/tools/validate.js';

type Obj = Record<string, unknown>;

const TRIES = 8;

/** Valid arguments, or a line saying why none were found within the tries. */
export async function sampleArguments(binding: ToolBinding, seed: number): Promise<Obj | string> {
  let last = '';
  for (let t = 0; t < TRIES; t++) {
    let value: unknown;
    try {
      value = generateSync(binding.inputSchema as never, {
        seed: seed * 31 + t,
        // arrays of one or two items: a form body has no way to say "empty array" (issue 23 report)
        minItems: 1,
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
