/**
 * swagger-parser's schema check (its `validate` runs it on the dereferenced document); we run it on the
 * bundled one. Not in its typings; the package has no `exports` map, so the file is importable, and the
 * version is pinned exactly in package.json. Throws a SyntaxError whose `details` are Ajv errors.
 */
declare module '@apidevtools/swagger-parser/lib/validators/schema.js' {
  const validateSchema: (api: unknown) => void;
  export default validateSchema;
}
