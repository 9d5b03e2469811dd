/**
 * The JSON text of a generated `handlers/<api>.bindings.gen.ts`: its line literals, joined. A line is a
 * template literal (`\`, the backtick, `$` and controls escaped: tsTemplateText), or a JSON string in a
 * module generated before that.
 */
export function bindingsTextOf(module: string): string {
  const lines = [...module.matchAll(/^ {2}(".*"|`.*`),$/gm)].map((m) => {
    const literal = m[1]!;
    if (literal.startsWith('"')) return JSON.parse(literal) as string;
    return literal
      .slice(1, -1)
      .replace(/\\(u[0-9a-f]{4}|[\\`$])/g, (_, e: string) =>
        e.length === 1 ? e : String.fromCharCode(Number.parseInt(e.slice(1), 16)),
      );
  });
  if (lines.length === 0) throw new Error('not a bindings module: no string lines');
  return lines.join('\n');
}
