/** Deterministic JSON for emitted files: 2-space indent, LF, trailing newline (STYLE habit 7). */
export function renderJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** A copy of `obj` with keys in sorted order, for maps whose order carries no meaning. */
export function sortKeys<T>(obj: Record<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(obj).sort()) out[key] = obj[key];
  return out;
}
