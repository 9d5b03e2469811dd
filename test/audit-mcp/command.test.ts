import { describe, expect, test } from 'vitest';
import { parseHeader, splitCommand } from '../../src/audit-mcp/command.js';

describe('--mcp command and --header parsing', () => {
  test('splits like a shell for quoting only', () => {
    expect(splitCommand(`node "my server.js" --root '/tmp/a b' x\\ y ""`)).toEqual([
      'node',
      'my server.js',
      '--root',
      '/tmp/a b',
      'x y',
      '',
    ]);
    expect(splitCommand('npx -y pkg $HOME')).toEqual(['npx', '-y', 'pkg', '$HOME']);
    expect(() => splitCommand('node "open')).toThrow(/unterminated/);
  });

  test('headers expand ${VAR} and $VAR from the environment and reject bad names', () => {
    expect(parseHeader('Authorization: Bearer ${T}', { T: 'abc' })).toEqual(['Authorization', 'Bearer abc']);
    expect(parseHeader('X-Key:$K', { K: 'v' })).toEqual(['X-Key', 'v']);
    expect(parseHeader('X-Key: ${MISSING}', {})).toEqual({ error: expect.stringMatching(/MISSING is not set/) });
    expect(parseHeader('no colon', {})).toEqual({ error: expect.stringMatching(/Name: value/) });
    expect(parseHeader('Bad Name: v', {})).toEqual({ error: expect.stringMatching(/not a valid header name/) });
  });
});
