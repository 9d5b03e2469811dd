/**
 * A plain command line parsed without yargs. Loading and running yargs costs ~40 ms of every start, as much as
 * the rest of a small spec's `generate`; most command lines are plain (`generate`, `check --out gen`, `audit -f
 * sarif -o report.sarif specs/`). This parser reads the same option tables (options.ts) and hands the command
 * the same arguments object yargs would. Anything it does not know how to read exactly as yargs does, it does
 * not guess at: it answers `undefined`, and yargs parses the line, with its `--help`, `--version`, messages and
 * every rule of its own (an unknown or repeated option, a missing or doubtful value, a choice not offered, `--`,
 * short flags together, `--flag=value` for a boolean, a boolean followed by `true`/`false`, a value after an
 * array option's value, which yargs would add to the array).
 */
import type { CommandSpec, OptionSpec, OptionTable } from './options.js';

export interface PlainArgs {
  command: CommandSpec;
  /** As yargs gives it: `_`, `$0`, each option under its name, its camelCase name and its alias, defaults set. */
  args: Record<string, unknown>;
}

/** yargs' camel-case expansion: `fail-on` is also `failOn`. */
const camelCase = (name: string): string => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The flags a command knows: `--name`, and `-a` (or `--alias`) for an alias. */
function flagsOf(table: OptionTable): Map<string, [string, OptionSpec]> {
  const flags = new Map<string, [string, OptionSpec]>();
  for (const [name, spec] of Object.entries(table)) {
    flags.set(`--${name}`, [name, spec]);
    if (spec.alias !== undefined)
      flags.set(spec.alias.length === 1 ? `-${spec.alias}` : `--${spec.alias}`, [name, spec]);
  }
  return flags;
}

/** A value as yargs reads it for the option's type; undefined where yargs would read it otherwise or refuse it. */
function readValue(spec: OptionSpec, text: string): string | number | undefined {
  if (spec.choices !== undefined && !spec.choices.includes(text)) return undefined;
  if (spec.type !== 'number') return text;
  // Decimal numbers only: yargs reads hex, exponents and blanks its own way.
  return /^-?\d+(?:\.\d+)?$/.test(text) ? Number(text) : undefined;
}

/** The option one token names, with `--no-name` for a boolean; undefined for anything else. */
function optionAt(
  flags: Map<string, [string, OptionSpec]>,
  flag: string,
): { name: string; spec: OptionSpec; negated: boolean } | undefined {
  const found = flags.get(flag);
  if (found !== undefined) return { name: found[0], spec: found[1], negated: false };
  const positive = flag.startsWith('--no-') ? flags.get(`--${flag.slice(5)}`) : undefined;
  if (positive?.[1].type === 'boolean') return { name: positive[0], spec: positive[1], negated: true };
  return undefined;
}

/** Reads the tokens after the command; undefined at the first one yargs must read. */
function readTokens(
  tokens: readonly string[],
  flags: Map<string, [string, OptionSpec]>,
): { values: Map<string, unknown>; positionals: string[] } | undefined {
  const values = new Map<string, unknown>();
  const positionals: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (!token.startsWith('-')) {
      positionals.push(token);
      continue;
    }
    const eq = token.startsWith('--') ? token.indexOf('=') : -1;
    const option = optionAt(flags, eq > 0 ? token.slice(0, eq) : token);
    if (option === undefined) return undefined;
    const { name, spec, negated } = option;
    if (values.has(name) && spec.array !== true) return undefined;
    const next = tokens[i + 1];
    if (spec.type === 'boolean') {
      if (eq > 0 || next === 'true' || next === 'false') return undefined;
      values.set(name, !negated);
      continue;
    }
    let text: string;
    if (eq > 0) text = token.slice(eq + 1);
    else if (next !== undefined && !next.startsWith('-')) {
      text = next;
      i++;
    } else return undefined;
    const value = readValue(spec, text);
    if (value === undefined) return undefined;
    if (spec.array === true) {
      const after = tokens[i + 1];
      if (after !== undefined && !after.startsWith('-')) return undefined;
      values.set(name, [...((values.get(name) as unknown[] | undefined) ?? []), value]);
    } else values.set(name, value);
  }
  return { values, positionals };
}

/**
 * `argv` (without node and the script) parsed against the command it names, or undefined when yargs must
 * parse it: no command, an unknown one, or a line outside what this parser reads exactly as yargs does.
 */
export function plainArgs(
  argv: readonly string[],
  commands: readonly CommandSpec[],
  global: OptionTable,
): PlainArgs | undefined {
  const command = commands.find((c) => c.name === argv[0]);
  if (command === undefined) return undefined;
  const table: OptionTable = { ...global, ...command.options };
  const read = readTokens(argv.slice(1), flagsOf(table));
  if (read === undefined) return undefined;
  const { values, positionals } = read;
  if (positionals.length > 0 && !command.inputs) return undefined;
  const args: Record<string, unknown> = { _: [command.name] };
  if (command.inputs) args.inputs = positionals;
  for (const [name, spec] of Object.entries(table)) {
    const value = values.has(name) ? values.get(name) : spec.default;
    if (value === undefined) {
      if (spec.demandOption === true) return undefined;
      continue;
    }
    args[name] = value;
    args[camelCase(name)] = value;
    if (spec.alias !== undefined) args[spec.alias] = value;
  }
  args.$0 = 'idemgen';
  return { command, args };
}
