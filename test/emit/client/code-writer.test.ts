/** The client emitter's text builder: the layout rules the generated files rely on, exactly. */
import { describe, expect, it } from 'vitest';
import { CodeWriter } from '../../../src/emit/client/code-writer.js';

describe('CodeWriter', () => {
  it('indents each line a block starts, and only at line starts', () => {
    const w = new CodeWriter();
    w.write('{').newLine();
    w.indent(() => {
      w.write('a: ').write('string;').newLine();
      w.write('b: {').newLine();
      w.indent(() => w.write('c: 1;').newLine());
      w.write('};').newLine();
    });
    w.write('}');
    expect(w.toString()).toBe('{\n  a: string;\n  b: {\n    c: 1;\n  };\n}');
  });

  it('starts a new line after a block that ended mid-line, before the next write', () => {
    const w = new CodeWriter();
    w.writeLine('return run(() =>');
    w.indent(() => w.write('call()'));
    w.write(');');
    expect(w.toString()).toBe('return run(() =>\n  call()\n);');
  });

  it('writeLine puts its text on a line of its own; blankLine leaves exactly one empty line', () => {
    const w = new CodeWriter();
    w.write('a;').writeLine('b;').write('c;').blankLine().write('d;');
    expect(w.toString()).toBe('a;\nb;\nc;\n\nd;');
  });

  it('indents every line of a multi-line write and keeps its empty lines', () => {
    const w = new CodeWriter();
    w.indent(() => w.write('// one\r\n\n// two'));
    expect(w.toString()).toBe('  // one\n\n  // two');
  });

  it('spaceIfLastNot adds no second space', () => {
    const w = new CodeWriter();
    w.write('/** x ').spaceIfLastNot().write('*/ /** y').spaceIfLastNot().write('*/');
    expect(w.toString()).toBe('/** x */ /** y */');
  });

  it('holds a large file as the same text however many writes made it', () => {
    const w = new CodeWriter();
    for (let i = 0; i < 20_000; i++) w.writeLine(`line${i};`);
    const text = w.toString();
    expect(text.length).toBe(Array.from({ length: 20_000 }, (_, i) => `line${i};\n`).join('').length);
    expect(text.endsWith('line19999;\n')).toBe(true);
    expect(w.toString()).toBe(text);
  });

  it('given an out, hands the same text over in chunks as it goes and keeps none of it', () => {
    const chunks: string[] = [];
    const streamed = new CodeWriter((chunk) => chunks.push(chunk));
    const held = new CodeWriter();
    for (const w of [streamed, held])
      for (let i = 0; i < 20_000; i++) {
        w.write(`a${i} {`);
        w.indent(() => w.writeLine(`b${i};`));
        w.write('}').newLine();
      }
    // Several chunks were out before the end: the file was not built whole first.
    expect(chunks.length).toBeGreaterThan(5);
    streamed.end();
    expect(chunks.join('')).toBe(held.toString());
    expect(streamed.toString()).toBe('');
  });
});
