/**
 * Argument validation before any effect: the tool's own input schema (JSON Schema 2020-12) through Ajv.
 * Ajv loads on first use, so importing `@idemgen/runtime` (every generated client does) never pays for it.
 * Formats are annotations here (`int32`, `binary`, …): the API enforces its own.
 */
import type { ToolBinding } from './types.js';

export interface ArgumentIssue {
  pointer: string;
  message: string;
}

type Check = (args: unknown) => ArgumentIssue[];

interface AjvError {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}
interface AjvLike {
  compile(schema: object): ((data: unknown) => boolean) & { errors?: AjvError[] | null };
}

let ajvPromise: Promise<AjvLike> | undefined;

async function loadAjv(): Promise<AjvLike> {
  const mod = (await import('ajv/dist/2020.js')) as unknown as {
    default: { default?: new (o: object) => AjvLike } & (new (o: object) => AjvLike);
  };
  const Ajv = mod.default.default ?? mod.default;
  // strict off: specs carry vendor keywords (`x-…`, `discriminator`) that are data, not errors.
  return new Ajv({ strict: false, allErrors: true, validateFormats: false, allowUnionTypes: true, logger: false });
}

function issuesOf(errors: AjvError[] | null | undefined): ArgumentIssue[] {
  return (errors ?? []).slice(0, 20).map((e) => {
    const missing =
      e.keyword === 'required' && typeof e.params.missingProperty === 'string' ? `/${e.params.missingProperty}` : '';
    const extra =
      e.keyword === 'additionalProperties' && typeof e.params.additionalProperty === 'string'
        ? ` (${e.params.additionalProperty})`
        : '';
    return { pointer: `${e.instancePath}${missing}`, message: `${e.message ?? e.keyword}${extra}` };
  });
}

/**
 * The key property is checked by the runtime (it may come from an intent instead of the model), so the
 * compiled schema does not require it; when present it is still validated against its own schema.
 */
function withoutKeyRequired(binding: ToolBinding): object {
  const schema = binding.inputSchema;
  if (binding.keyProperty === undefined || !Array.isArray(schema.required)) return schema;
  return { ...schema, required: (schema.required as string[]).filter((r) => r !== binding.keyProperty) };
}

const cache = new WeakMap<ToolBinding, Promise<Check>>();

async function compile(binding: ToolBinding): Promise<Check> {
  ajvPromise ??= loadAjv();
  const ajv = await ajvPromise;
  try {
    const validate = ajv.compile(withoutKeyRequired(binding));
    return (args) => (validate(args) ? [] : issuesOf(validate.errors));
  } catch (err) {
    // A schema Ajv cannot compile: refuse every call rather than send unchecked arguments.
    const message = `the tool's input schema could not be compiled (${err instanceof Error ? err.message : String(err)})`;
    return () => [{ pointer: '', message }];
  }
}

/** Compiled once per binding object. */
export function validateArguments(binding: ToolBinding, args: unknown): Promise<ArgumentIssue[]> {
  let check = cache.get(binding);
  if (check === undefined) {
    check = compile(binding);
    cache.set(binding, check);
  }
  return check.then((c) => c(args));
}
