import { describe, expect, it } from 'vitest';
import { compileOnFirstUse } from '../../src/regexps.js';

/** A pattern that counts its executions and the subjects' lengths (`test` goes through `exec`). */
class Counted extends RegExp {
  lengths: number[] = [];
  override exec(subject: string): RegExpExecArray | null {
    this.lengths.push(subject.length);
    return super.exec(subject);
  }
}

describe('compileOnFirstUse', () => {
  it('runs each pattern once, on a subject long enough for V8 to compile it, the first time only', () => {
    const a = new Counted('\\bkey\\b', 'i');
    const b = new Counted('^\\s*(?:whether|if true)\\b', 'i');
    const compile = compileOnFirstUse([a, b]);
    expect(a.lengths).toEqual([]);
    compile();
    compile();
    expect(a.lengths).toEqual([1000]);
    expect(b.lengths).toEqual([1000]);
  });

  it("leaves a global or sticky pattern's lastIndex and what the patterns match as they were", () => {
    const g = /key/g;
    g.lastIndex = 5;
    const y = /key/y;
    y.lastIndex = 2;
    compileOnFirstUse([g, y])();
    expect(g.lastIndex).toBe(5);
    expect(y.lastIndex).toBe(2);
    expect(g.exec('a key and a key')?.index).toBe(12);
    expect(y.exec('a key')?.index).toBe(2);
  });
});
