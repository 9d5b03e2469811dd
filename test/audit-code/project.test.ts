import { join } from 'node:path';
import { Node, SyntaxKind } from 'ts-morph';
import { describe, expect, test } from 'vitest';
import { createCodeProject } from '../../src/audit-code/project.js';
import { refOf } from '../../src/audit-code/resolve.js';
import { FIXTURES, fixtureFiles } from './helpers.js';

describe('the code-audit project stays cheap', () => {
  test('the checker follows an aliased local re-export yet loads only the given files (no lib, no @types, no imports)', () => {
    const files = fixtureFiles('key_generated_in_tool');
    const project = createCodeProject(files);
    const file = project.getSourceFileOrThrow(join(FIXTURES, 'key_generated_in_tool', 'positive.ts'));
    const makeId = file
      .getDescendantsOfKind(SyntaxKind.CallExpression)
      .map((c) => c.getExpression())
      .find((e) => Node.isIdentifier(e) && e.getText() === 'makeId')!;
    // Syntax alone sees an import from '../fixtures/code-audit/key_generated_in_tool/util.js'; the checker finds node:crypto's randomUUID behind it.
    expect(refOf(makeId)).toEqual({ module: './util.js', path: ['makeId'] });
    expect(refOf(makeId, true)).toEqual({ module: 'crypto', path: ['randomUUID'] });
    const loaded = project
      .getProgram()
      .compilerObject.getSourceFiles()
      .map((f) => f.fileName)
      .sort();
    expect(loaded).toEqual([...files].sort());
    expect(project.getProgram().compilerObject.getCompilerOptions()).toMatchObject({
      noLib: true,
      noResolve: true,
      skipLibCheck: true,
      types: [],
    });
  });
});
