/** The JSON text of a generated `handlers/<api>.bindings.gen.ts`: its string literals (JSON strings), joined. */
export function bindingsTextOf(module: string): string {
  const lines = [...module.matchAll(/^ {2}(".*"),$/gm)].map((m) => JSON.parse(m[1]!) as string);
  if (lines.length === 0) throw new Error('not a bindings module: no string lines');
  return lines.join('\n');
}
