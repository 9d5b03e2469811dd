/**
 * `--mcp "<command …>"` is one string so it survives shells and config files: split it like a POSIX
 * shell would for quoting (single quotes literal, double quotes with backslash escapes), nothing more —
 * no variable expansion, no globbing; the server is spawned without a shell.
 */
export function splitCommand(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let has = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else cur += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1])) cur += text[++i];
      else cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      has = true;
    } else if (c === '\\' && i + 1 < text.length) {
      cur += text[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has || cur !== '') out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += c;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} quote`);
  if (has || cur !== '') out.push(cur);
  return out;
}

/** `Authorization: Bearer ${TOKEN}` → header pair; `${NAME}` / `$NAME` come from the environment. */
export function parseHeader(text: string, env: NodeJS.ProcessEnv): [string, string] | { error: string } {
  const i = text.indexOf(':');
  if (i <= 0) return { error: `--header ${JSON.stringify(text)} is not of the form Name: value` };
  const name = text.slice(0, i).trim();
  let missing: string | undefined;
  const value = text
    .slice(i + 1)
    .trim()
    .replace(
      /\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (_m, a: string | undefined, b: string | undefined) => {
        const v = env[(a ?? b)!];
        if (v === undefined) missing = a ?? b;
        return v ?? '';
      },
    );
  if (missing) return { error: `--header ${name}: environment variable ${missing} is not set` };
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
    return { error: `--header: ${JSON.stringify(name)} is not a valid header name` };
  return [name, value];
}
