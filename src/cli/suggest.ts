/** What the command-line parser knows, for "did you mean …?" (diagnostics/suggest.ts picks the closest). */

/** `--name` options a `--help` text lists (long forms only). */
export function optionsInHelp(help: string): string[] {
  const names = new Set<string>();
  for (const m of help.matchAll(/(?:^|[\s,[])--([a-z][a-z0-9-]*)/gm)) names.add(m[1]!);
  return [...names];
}

/** yargs reports `fail-onn, failOnn`: the camelCase twin of a kebab-case name is the same argument. */
export function unknownNames(message: string): string[] | undefined {
  const m = /^Unknown arguments?: (.+)$/.exec(message.trim());
  if (m === null) return undefined;
  const names = m[1]!.split(', ').map((s) => s.trim());
  const kebab = new Set(
    names.filter((n) => n.includes('-')).map((n) => n.replace(/-([a-z])/g, (_, c) => c.toUpperCase())),
  );
  return names.filter((n) => !kebab.has(n) || n.includes('-'));
}
