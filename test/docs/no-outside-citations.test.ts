/**
 * A reader of the repository, of generated code or of the CLI has neither the operating procedure idemgen
 * started from nor the design document, so no surface they see may send them to a section of either
 * ("SOP §2.3", "DESIGN §4 step 0", "SOP Step 5", "SOP Case 2", "per the SOP"). Words of our own, or a
 * docs/concepts.md section, say it instead. The `OP-N` alias the audit prints next to a mechanism's name
 * is not a citation and stays allowed.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODE_RULES } from '../../src/audit-code/rules.js';
import { MCP_RULES } from '../../src/audit-mcp/rules.js';
import { RULES } from '../../src/classify/rules.js';
import { ROOT, runCli } from '../helpers/cli.js';

/** A citation of a section, step, case or lesson of either outside document, or of the document itself. */
const CITATION =
  /\b(?:SOP|DESIGN)\b(?:'s)?\s*(?:§|step\b|case\b|lessons?\b|OP-\d|number)|\b(?:per|in|from) the SOP\b|DESIGN\.md|\bthe SOP's\b/i;

function files(dir: string, keep: (path: string) => boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...files(path, keep));
    else if (keep(path)) out.push(path);
  }
  return out;
}

/** `file:line: text` for every line of `text` that cites. */
function citations(where: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) => (CITATION.test(line) ? [`${where}:${i + 1}: ${line.trim().slice(0, 160)}`] : []));
}

const read = (path: string) => citations(relative(ROOT, path), readFileSync(path, 'utf8'));

describe('no user-visible surface cites the SOP or the design document', () => {
  it('the pattern catches the forms that were there, and not the audit alias', () => {
    for (const cited of [
      'name verb "send" is a side-effect verb (SOP §1)',
      "source: 'DESIGN §4 step 0'",
      'key reused with different arguments (SOP Step 5): not calling',
      'swallows new intents (SOP Case 2)',
      '(SOP Lessons: "the key must be born before the side effect")',
      "the mechanism's name or its SOP number",
      'deduplicated per the SOP (@idemgen/runtime/tools)',
      "the SOP's `INSERT OR IGNORE`",
    ])
      expect({ cited, found: CITATION.test(cited) }).toEqual({ cited, found: true });
    for (const fine of ['native-key (OP-1) + tool-dedup (OP-7)', 'fail-closed', 'SOPHIE §3', 'RFC 9110 §9.2.2'])
      expect({ fine, found: CITATION.test(fine) }).toEqual({ fine, found: false });
  });

  it('generated/ (code comments, tool texts, SQL, the audit report)', () => {
    const all = files(join(ROOT, 'generated'), () => true);
    expect(all.length).toBeGreaterThan(20);
    expect(all.flatMap(read)).toEqual([]);
  });

  it('README, CHANGELOG, docs/ (with the API report) and the runtime READMEs', () => {
    const docs = files(join(ROOT, 'docs'), (p) => p.endsWith('.md'));
    expect(docs.map((p) => relative(ROOT, p))).toContain(join('docs', 'api', 'runtime.api.md'));
    const readmes = [
      join(ROOT, 'packages', 'runtime', 'README.md'),
      join(ROOT, 'packages', 'runtime', 'langgraph', 'README.md'),
    ];
    const paths = [join(ROOT, 'README.md'), join(ROOT, 'CHANGELOG.md'), ...docs, ...readmes];
    expect(paths.flatMap(read)).toEqual([]);
  });

  it("the runtime's sources, whose doc comments become the published .d.ts", () => {
    const sources = files(join(ROOT, 'packages', 'runtime', 'src'), (p) => /\.(ts|json)$/.test(p));
    expect(sources.length).toBeGreaterThan(50);
    expect(sources.flatMap(read)).toEqual([]);
  });

  it("the audit rules' titles, descriptions and sources", () => {
    const texts = [...RULES, ...CODE_RULES, ...MCP_RULES].flatMap((r) =>
      citations(r.id, `${r.title}\n${r.description}\n${r.source}`),
    );
    expect(texts).toEqual([]);
  });

  it('CLI help of every command, and the config init writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idemgen-citations-'));
    const root = await runCli(['--help'], dir);
    const commands = [...root.stdout.matchAll(/^ {2}idemgen (\w+)/gm)].map((m) => m[1] as string);
    expect(commands).toEqual(expect.arrayContaining(['generate', 'audit', 'serve', 'init', 'reconcile']));
    const found = citations('idemgen --help', root.stdout);
    for (const command of commands) {
      const help = await runCli([command, '--help'], dir);
      expect(help.code).toBe(0);
      found.push(...citations(`idemgen ${command} --help`, help.stdout + help.stderr));
    }
    const init = await runCli(['init'], dir);
    expect(init.code).toBe(0);
    const written = files(dir, () => true);
    expect(written.length).toBeGreaterThan(0);
    for (const path of written) found.push(...citations(`init: ${relative(dir, path)}`, readFileSync(path, 'utf8')));
    expect(found).toEqual([]);
  });
});
