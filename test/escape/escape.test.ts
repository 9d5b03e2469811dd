import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  docInline,
  docLines,
  fileNameSegment,
  jsonText,
  lineComment,
  mdCode,
  mdText,
  outputPathProblem,
  sqlComment,
  terminalText,
  tsIdentifier,
  tsMember,
  tsNumber,
  tsObjectKey,
  tsPropertyKey,
  tsString,
  tsTemplateText,
} from '../../src/escape/index.js';

const g = globalThis as { __pwned?: unknown };

/** Evaluates an expression exactly as written into generated code. */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the point: run what an escaper produced
const run = (expr: string, arg?: unknown): unknown => new Function('request', `return (${expr});`)(arg);

const PAYLOADS = [
  '${globalThis.__pwned=1}',
  '$',
  '${',
  '\\${globalThis.__pwned=1}',
  '`+(globalThis.__pwned=1)+`',
  '\\',
  '\\`',
  '"',
  "'",
  '*/ globalThis.__pwned=1; /*',
  '\u2028globalThis.__pwned=1',
  '\r\n',
  '\u202eevil',
  '\u0000\u001b[2J',
  '</script>',
  '\ud800',
];

describe('TypeScript contexts', () => {
  it.each(PAYLOADS)('string and template text round-trip %j without running it', (p) => {
    expect(run(tsString(p))).toBe(p);
    expect(run(`\`${tsTemplateText(p)}\``)).toBe(p);
    expect(run(`\`a${tsTemplateText(p.slice(0, 1))}${tsTemplateText(p.slice(1))}b\``)).toBe(`a${p}b`);
    expect(g.__pwned).toBeUndefined();
  });

  it('escapes every `$`, backtick and backslash in template text, and shows bidi controls as escapes', () => {
    expect(tsTemplateText('a$b`c\\d${e}')).toBe('a\\$b\\`c\\\\d\\${e}');
    expect(tsString('x\u202ey\u2028')).toBe('"x\\u202ey\\u2028"');
  });

  it('numbers: finite as written, never a string', () => {
    expect(tsNumber(86400)).toBe('86400');
    expect(tsNumber(-1.5)).toBe('-1.5');
    expect(tsNumber(Infinity)).toBe('Infinity');
    expect(() => tsNumber('1); globalThis.__pwned=1; (' as unknown as number)).toThrow(TypeError);
  });

  it('keys: bare identifiers, quoted otherwise; `__proto__` computed in object literals', () => {
    expect(tsPropertyKey('amount')).toBe('amount');
    expect(tsPropertyKey('x-y')).toBe('"x-y"');
    expect(tsPropertyKey('constructor')).toBe('constructor');
    expect(tsObjectKey('__proto__')).toBe('["__proto__"]');
    const obj = run(`{ ${tsObjectKey('__proto__')}: "v" }`) as Record<string, unknown>;
    expect(Object.hasOwn(obj, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
    expect(run(tsMember('request', 'a"b'), { 'a"b': 7 })).toBe(7);
  });

  it.each([
    ['constructor', 'constructor_'],
    ['__proto__', '__proto___'],
    ['then', 'then_'],
    ['class', 'class_'],
    ['1st', '_1st'],
    ['café', 'cafe'],
    ['名前', '__'],
    ['', '_'],
    ['a-b.c', 'a_b_c'],
    ['Promise', 'Promise'],
  ])('identifier %j → %j', (raw, want) => {
    expect(tsIdentifier(raw)).toBe(want);
  });
});

describe('comments', () => {
  const jsdocOf = (lines: string[]): { tags: string[]; statements: number } => {
    const text = `/**\n${lines.map((l) => ` * ${l}`).join('\n')}\n */\nfunction f(): void {}\n`;
    const sf = ts.createSourceFile('x.ts', text, ts.ScriptTarget.ES2022, true);
    return { tags: ts.getJSDocTags(sf.statements[0]!).map((t) => t.tagName.text), statements: sf.statements.length };
  };

  it('a description cannot end the block, add a JSDoc tag or break a line comment', () => {
    const text =
      'a */ globalThis.__pwned=1; /* b\n@deprecated\n  see @internal x@y.z {@link https://e.x}\u2028c\rd\u0085e';
    const lines = docLines(text);
    expect(lines).toEqual([
      'a *\\/ globalThis.__pwned=1; /* b',
      '\\@deprecated',
      '  see \\@internal x@y.z {\\@link https://e.x}',
      'c',
      'd',
      'e',
    ]);
    expect(jsdocOf(lines)).toEqual({ tags: [], statements: 1 });
    expect(docInline(text)).not.toMatch(/[\n\r\u2028\u2029]|\*\//);
    const line = `// ${lineComment('x\nglobalThis.__pwned=1\u2028y\u202e')}\nconst z = 1;`;
    expect(ts.createSourceFile('x.ts', line, ts.ScriptTarget.ES2022).statements).toHaveLength(1);
  });

  it('SQL comments are one line of printable ASCII', () => {
    expect(sqlComment("a\n'); DROP TABLE t; --\u2028é")).toBe("a?'); DROP TABLE t; --??");
  });

  it('terminal text has no control sequences', () => {
    expect(terminalText('a\u001b[2Jb\nc')).toBe('a\\u001b[2Jb c');
  });
});

describe('Markdown', () => {
  const md = new MarkdownIt({ html: true });
  const htmlTokens = (src: string): string[] =>
    md
      .parse(src, {})
      .flatMap((t) => [t, ...(t.children ?? [])])
      .filter((t) => t.type.startsWith('html'))
      .map((t) => t.content);

  it('raw HTML, links, emphasis and pipes in text stay text', () => {
    const text = '</script><img src=x onerror=alert(1)> <!-- c --> [l](javascript:x) **b** _i_ `c` | ~~s~~ &lt; a_b';
    const cell = `| x | y |\n|---|---|\n| ${mdText(text)} | ${mdCode(text)} |\n`;
    expect(htmlTokens(cell)).toEqual([]);
    const html = md.render(cell);
    expect(html).not.toMatch(/<(img|script|a|strong|em|del)\b/);
    expect(html.match(/<td>/g)).toHaveLength(2);
    expect(html).toContain('&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(mdText('idempotency_key')).toBe('idempotency_key');
  });

  it('a line break cannot start a block', () => {
    expect(
      md
        .parse(`# ${mdText('t\n# h\n- item\n<div>')}`, {})
        .filter((t) => t.type.endsWith('_open'))
        .map((t) => t.type),
    ).toEqual(['heading_open']);
  });
});

describe('JSON and file names', () => {
  it('JSON text escapes LS/PS and parses back', () => {
    const value = { d: 'a\u2028b\u2029</script>' };
    expect(jsonText(value)).not.toMatch(/[\u2028\u2029]/);
    expect(JSON.parse(jsonText(value))).toEqual(value);
  });

  it.each([
    ['../../etc/passwd', 'etc-passwd'],
    ['CON', 'con_'],
    ['nul.tools', 'nul_.tools'],
    ['Com1', 'com1_'],
    ['.hidden', 'hidden'],
    ['Payments API', 'payments-api'],
    ['', 'api'],
    ['a\\b:c', 'a-b-c'],
    ['x'.repeat(300), 'x'.repeat(100)],
  ])('file name %j → %j', (raw, want) => {
    expect(fileNameSegment(raw)).toBe(want);
  });

  it.each([
    ['../x', 'has an empty, `.` or `..` segment'],
    ['a/../../x', 'has an empty, `.` or `..` segment'],
    ['/etc/x', 'is absolute'],
    ['a\\b', 'contains `\\`, `:` or NUL'],
    ['client/con.gen.ts', 'has a reserved file name (con.gen.ts)'],
    ['a//b', 'has an empty, `.` or `..` segment'],
    ['c:/x', 'contains `\\`, `:` or NUL'],
    ['', 'is empty'],
  ])('output path %j is refused: it %s', (p, why) => {
    expect(outputPathProblem(p)).toBe(why);
  });

  it('ordinary output paths pass', () => {
    expect(outputPathProblem('client/payments.gen.ts')).toBeUndefined();
    expect(outputPathProblem('sql/postgres/0003_owned_orders.up.sql')).toBeUndefined();
  });
});

describe('Markdown cells, property', () => {
  const md = new MarkdownIt({ html: true });
  const LINE_BREAK = /\r\n|[\n\r\u2028\u2029\u0085]/g;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the oracle mirrors the escaper's control-character class
  const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c\ufeff]/g;
  const units = [
    '<',
    '>',
    '&',
    '|',
    '`',
    '\\',
    '*',
    '_',
    '[',
    ']',
    '(',
    ')',
    '!',
    '~',
    '#',
    '-',
    ' ',
    '\n',
    'a',
    'é',
    ';',
    ':',
    '/',
    '"',
  ];
  const text = fc.oneof(
    fc.string({ unit: fc.constantFrom(...units), maxLength: 30 }),
    fc.string({ unit: 'grapheme', maxLength: 30 }),
  );

  it('any text in a table cell stays one cell of plain text that reads exactly as given', () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const tokens = md.parse(`| x | y |\n|---|---|\n| ${mdText(a)} | ${mdCode(b)} |\n`, {});
        const inline = tokens.filter((t) => t.type === 'inline').slice(2);
        expect(inline).toHaveLength(2);
        const children = inline.flatMap((t) => t.children ?? []);
        expect(children.filter((c) => !['text', 'code_inline'].includes(c.type)).map((c) => c.type)).toEqual([]);
        const read = (t: (typeof inline)[number]): string => (t.children ?? []).map((c) => c.content).join('');
        expect(read(inline[0]!).trim()).toBe(a.replace(LINE_BREAK, ' ').replace(HIDDEN, '\ufffd').trim());
      }),
      { numRuns: 300, seed: 20261130 },
    );
  });
});
