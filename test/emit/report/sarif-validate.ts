/** Ajv 8 validator for the committed SARIF 2.1.0 schema (draft-04: `id` → `$id`, no `$schema`). */
import { readFileSync } from 'node:fs';
import AjvModule from 'ajv';
import addFormatsModule from 'ajv-formats';

export function sarifValidator(): (log: unknown) => { valid: boolean; errors: string } {
  const schema = JSON.parse(
    readFileSync(new URL('../../fixtures/sarif/sarif-schema-2.1.0.json', import.meta.url), 'utf8'),
  ) as Record<string, unknown>;
  const { $schema: _draft, id, ...rest } = schema;
  // CommonJS packages seen from NodeNext ESM: the classes sit on `.default`.
  const Ajv = AjvModule.default;
  const addFormats = addFormatsModule.default;
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  const validate = ajv.compile({ ...rest, $id: id } as Record<string, unknown>);
  return (log) => {
    const valid = validate(log) as boolean;
    return { valid, errors: ajv.errorsText(validate.errors) };
  };
}
