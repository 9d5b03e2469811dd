/** Compile emitted schemas with Ajv's JSON Schema 2020-12 build in strict mode (unknown keywords are errors). */
import Ajv2020Module from 'ajv/dist/2020.js';

type Ajv2020 = InstanceType<typeof Ajv2020Module.default>;

export function createAjv(): Ajv2020 {
  const Ajv2020 = Ajv2020Module.default;
  // validateFormats off: formats are annotations here (int32, binary…); the test is about schema validity.
  // strictTypes/strictRequired are Ajv lints (e.g. `minItems` without `type: array` is valid JSON Schema);
  // strictSchema stays on, so unknown keywords and ill-typed keyword values are errors.
  const ajv = new Ajv2020({
    strict: true,
    strictTypes: false,
    strictRequired: false,
    allErrors: true,
    validateFormats: false,
    allowUnionTypes: true,
  });
  ajv.addKeyword({ keyword: 'x-mcp-header', schemaType: 'string' });
  return ajv;
}

/** `undefined` when the schema compiles; otherwise the Ajv message. */
export function compileError(ajv: Ajv2020, schema: unknown): string | undefined {
  try {
    ajv.compile(schema as object);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}
