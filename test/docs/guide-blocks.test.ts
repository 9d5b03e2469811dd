/**
 * Every code block of the README and of docs/guides/*.md is checked by what it is, so a guide cannot drift from
 * the tool it describes:
 * - ```sh: run, line by line, in a scratch project holding the example specs (`npx idemgen` is this checkout's
 *   CLI); each line must exit 0. The README's own block (`npm ci`, `npm test`) is checked as text instead.
 * - ```text: command synopses and commands that need a live service (a server, an OAuth issuer): every
 *   `idemgen <command>` must be a command and every `--option` one that command's `--help` lists; every
 *   `npm run <script>` a script of package.json; every `node <file>` a file of the repository.
 * - ```ts: type-checked (and the MCP one run) by test/emit/handlers/readme-examples.test.ts and
 *   test/emit/mcp/twilio-glue.test.ts, which fail when a ```ts block is not one of their examples.
 * - ```jsonc: parsed as JSON once its comments are removed.
 * Any other tag (or none) fails: a block's kind decides how it is checked.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, scratchProject } from '../helpers/cli.js';

const BIN = join(ROOT, 'bin/idemgen.js');
const GUIDES = join(ROOT, 'docs/guides');
const DOCS = [
  'README.md',
  ...readdirSync(GUIDES)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/guides/${f}`),
];
const COMMANDS = ['generate', 'audit', 'validate', 'check', 'serve', 'reconcile', 'prune', 'migrate', 'init'];
const SCRIPTS = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;

interface Block {
  doc: string;
  tag: string;
  text: string;
  line: number;
}

function blocks(doc: string): Block[] {
  const lines = readFileSync(join(ROOT, doc), 'utf8').split('\n');
  const out: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i]!);
    if (open === null) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'));
    out.push({ doc, tag: open[1]!.trim(), text: lines.slice(i + 1, end).join('\n'), line: i + 1 });
    i = end;
  }
  return out;
}

const ALL = DOCS.flatMap(blocks);

/** Commands of a block: continuation lines joined, comments and blank lines dropped. */
function commandLines(text: string): string[] {
  return text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((l) => l.replace(/(^|\s)#.*$/, '').trim())
    .filter((l) => l !== '');
}

function run(command: string, cwd: string): Promise<{ code: number; out: string }> {
  const line = command.replace(/\bnpx idemgen\b/g, `node ${JSON.stringify(BIN)}`);
  return new Promise((resolve) =>
    execFile('bash', ['-c', line], { cwd, env: { ...process.env, CI: 'true' } }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    ),
  );
}

const helps = new Map<string, Promise<string[]>>();
function optionsOf(command: string): Promise<string[]> {
  let got = helps.get(command);
  if (got === undefined) {
    got = run(`node ${JSON.stringify(BIN)} ${command} --help`, ROOT).then(({ out }) => [
      ...new Set([...out.matchAll(/--([a-z][a-z0-9-]*)/g)].map((m) => m[1]!)),
    ]);
    helps.set(command, got);
  }
  return got;
}

/** What is wrong with one line of a ```text block (or the README's commands), if anything. */
async function problemsOf(line: string): Promise<string[]> {
  const problems: string[] = [];
  const cli = /\bidemgen\s+([a-z-]+)/.exec(line);
  if (cli !== null) {
    const command = cli[1]!;
    if (!COMMANDS.includes(command)) return [`"${command}" is not an idemgen command`];
    const known = await optionsOf(command);
    // A quoted argument is a value (`--mcp "node server.js --root /data"`): its words are not idemgen's options.
    const rest = line.slice(cli.index).replace(/"[^"]*"|'[^']*'/g, '""');
    for (const m of rest.matchAll(/(?:^|[\s[|(])--([a-z][a-z0-9-]*)/g)) {
      const name = m[1]!;
      if (!known.includes(name) && !(name.startsWith('no-') && known.includes(name.slice(3))))
        problems.push(`idemgen ${command} has no option --${name}`);
    }
  }
  for (const m of line.matchAll(/\bnpm run ([\w:-]+)/g))
    if (SCRIPTS[m[1]!] === undefined) problems.push(`package.json has no script ${m[1]}`);
  for (const m of line.matchAll(/\bnode ((?:scripts|bin)\/[\w./-]+)/g))
    if (!existsSync(join(ROOT, m[1]!))) problems.push(`${m[1]} does not exist`);
  return problems;
}

type Version = [number, number, number];
const parse = (v: string): Version => {
  const [a = 0, b = 0, c = 0] = v
    .replace(/^v/, '')
    .split('.')
    .map((x) => (/^\d+$/.test(x) ? Number(x) : 0));
  return [a, b, c];
};
const cmp = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** `engines.node` as npm reads it, for the forms the lockfile holds: `>=`, `>`, `<`, `<=`, `^`, `~`, bare majors, `||`. */
function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  return range.split('||').some((alt) =>
    alt
      .trim()
      .replace(/(>=|<=|>|<|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .filter((c) => c !== '' && c !== '*')
      .every((c) => {
        const m = /^(>=|<=|>|<|\^|~)?(.+)$/.exec(c)!;
        const op = m[1] ?? '';
        const parts = m[2]!.split('.').filter((x) => /^\d+$/.test(x)).length;
        const w = parse(m[2]!);
        if (op === '>=') return cmp(v, w) >= 0;
        if (op === '>') return cmp(v, w) > 0;
        if (op === '<=') return cmp(v, w) <= 0;
        if (op === '<') return cmp(v, w) < 0;
        if (op === '^') return v[0] === w[0] && cmp(v, w) >= 0;
        if (op === '~') return v[0] === w[0] && v[1] === w[1] && cmp(v, w) >= 0;
        // A bare `20` or `20.1`: that major (and minor).
        return v[0] === w[0] && (parts < 2 || v[1] === w[1]) && (parts < 3 || v[2] === w[2]);
      }),
  );
}

describe('the README’s Node.js claims', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const use = /Node\.js ≥ (\d+(?:\.\d+)*) to use idemgen/.exec(readme)?.[1];
  const develop = /developing idemgen itself: Node\.js ≥ (\d+(?:\.\d+)*)/.exec(readme)?.[1];

  it('using: both published packages ask for no more than the README says', () => {
    expect(use).toBeDefined();
    for (const manifest of ['package.json', 'packages/runtime/package.json']) {
      const engines = (JSON.parse(readFileSync(join(ROOT, manifest), 'utf8')) as { engines?: { node?: string } })
        .engines;
      expect(engines?.node, manifest).toBe(`>=${use}`);
    }
  });

  it('developing: nothing `npm ci` installs by default warns EBADENGINE on the Node.js the README names', () => {
    expect(develop).toBeDefined();
    const floor = `${develop}.0.0`.split('.').slice(0, 3).join('.');
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
    };
    const warns = Object.entries(lock.packages)
      // Optional packages are the other platforms' binaries: npm skips them here, and does not check their engines.
      .filter(([path, p]) => path !== '' && p.optional !== true && !Array.isArray(p.engines) && p.engines?.node)
      .filter(([, p]) => !satisfies(floor, (p.engines as { node: string }).node))
      .map(([path, p]) => `${path} needs ${(p.engines as { node: string }).node}`);
    expect(warns).toEqual([]);
    // The check can fail: Node.js 20 is below what the dev tools ask for.
    expect(satisfies('20.0.0', '^20.19.0 || >=22.12.0')).toBe(false);
  });
});

describe('the code blocks of the README and the guides', () => {
  it('every block says what it is: sh, text, ts or jsonc', () => {
    const untagged = ALL.filter((b) => !['sh', 'text', 'ts', 'jsonc'].includes(b.tag)).map((b) => `${b.doc}:${b.line}`);
    expect(untagged).toEqual([]);
    expect(ALL.filter((b) => b.tag === 'sh' && b.doc !== 'README.md').length).toBeGreaterThanOrEqual(3);
  });

  it('the README links every guide, and every guide it links exists (install.md comes with the install route)', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const linked = [...new Set([...readme.matchAll(/\]\((docs\/guides\/[a-z-]+\.md)\)/g)].map((m) => m[1]!))];
    for (const doc of DOCS.filter((d) => d !== 'README.md' && !d.endsWith('development.md')))
      expect(linked, doc).toContain(doc);
    expect(linked).toContain('docs/guides/install.md');
  });

  for (const b of ALL.filter((x) => x.tag === 'sh' && x.doc !== 'README.md')) {
    it(`${b.doc}:${b.line} (sh) runs, each line exits 0`, async () => {
      const dir = scratchProject();
      for (const line of commandLines(b.text)) {
        const r = await run(line, dir);
        expect(r.code, `${line}\n${r.out}`).toBe(0);
      }
    }, 180_000);
  }

  it('text blocks and the README commands name real commands, options, scripts and files', async () => {
    const checked = ALL.filter((b) => b.tag === 'text' || (b.tag === 'sh' && b.doc === 'README.md'));
    const problems: string[] = [];
    for (const b of checked)
      for (const line of commandLines(b.text))
        for (const p of await problemsOf(line)) problems.push(`${b.doc}:${b.line}: ${p}`);
    expect(problems).toEqual([]);
    expect(checked.length).toBeGreaterThanOrEqual(4);
  }, 120_000);

  it('jsonc blocks parse', () => {
    for (const b of ALL.filter((x) => x.tag === 'jsonc')) {
      const json = b.text.replace(/^\s*\/\/.*$/gm, '').trim();
      expect(() => JSON.parse(json.startsWith('{') ? json : `{${json}}`), `${b.doc}:${b.line}`).not.toThrow();
    }
  });
});
