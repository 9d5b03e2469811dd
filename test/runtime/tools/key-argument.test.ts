/**
 * The key argument's one module (tools/key-argument.ts): the limits validateKey enforces are the ones every
 * schema states, the compact listing's description is the module's, and the doors hide or strip the key
 * argument by the same rules.
 */
import { describe, expect, it } from 'vitest';
import { validateKey } from '../../../packages/runtime/src/core/keys.js';
import { compactListedTool } from '../../../packages/runtime/src/mcp/compact.js';
import { listedToolsOf } from '../../../packages/runtime/src/mcp/listing.js';
import {
  KEY_ARGUMENT,
  KEY_MAX_LENGTH,
  KEY_MIN_LENGTH,
  hiddenArguments,
  keyArgumentSchema,
  keyDescription,
  keyMaxLength,
  withoutKeyArgument,
} from '../../../packages/runtime/src/tools/key-argument.js';
import type { ToolBinding } from '../../../packages/runtime/src/tools/types.js';

const binding = (more: Partial<ToolBinding> = {}): ToolBinding =>
  ({
    operation: 'POST /notes',
    method: 'createNote',
    names: { mcp: 'createNote', openai: 'createNote', anthropic: 'createNote' },
    description: 'Create a note.',
    effect: 'write',
    mechanism: 'dedup-table',
    ttlSeconds: 3600,
    keyProperty: KEY_ARGUMENT,
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string' }, [KEY_ARGUMENT]: keyArgumentSchema('long rule') },
      required: ['text', KEY_ARGUMENT],
    },
    ...more,
  }) as ToolBinding;

describe('the key argument module', () => {
  it('validateKey enforces the limits the schema states', () => {
    const schema = keyArgumentSchema('d');
    expect(schema).toMatchObject({ minLength: KEY_MIN_LENGTH, maxLength: KEY_MAX_LENGTH, pattern: '^[!-~]+$' });
    expect(validateKey('k'.repeat(KEY_MIN_LENGTH))).toHaveLength(KEY_MIN_LENGTH);
    expect(validateKey('k'.repeat(KEY_MAX_LENGTH))).toHaveLength(KEY_MAX_LENGTH);
    expect(() => validateKey('k'.repeat(KEY_MIN_LENGTH - 1))).toThrow(/at least 16/);
    expect(() => validateKey('k'.repeat(KEY_MAX_LENGTH + 1))).toThrow(/at most 255/);
  });

  it("a carrier's smaller limit wins, never below the shortest key", () => {
    expect([keyMaxLength(), keyMaxLength(64), keyMaxLength(8), keyMaxLength(1000)]).toEqual([255, 64, 16, 255]);
  });

  it("the compact listing's key description is the module's, with the binding's owner and window", () => {
    const own = compactListedTool(listedToolsOf([binding()])[0]!, binding());
    const props = own.inputSchema.properties as Record<string, { description: string }>;
    expect(props[KEY_ARGUMENT]!.description).toBe(keyDescription('server', 3600));
    const native = binding({ mechanism: 'native-key', carrier: { in: 'header', name: 'Idempotency-Key' } as never });
    const nativeProps = compactListedTool(listedToolsOf([native])[0]!, native).inputSchema.properties as Record<
      string,
      { description: string }
    >;
    expect(nativeProps[KEY_ARGUMENT]!.description).toBe(keyDescription('api', 3600));
  });

  it('the listing hides the key only when the host keys the call; doors strip it the same way', () => {
    expect([...hiddenArguments({ AccountSid: 'x' }, 'model')(binding())]).toEqual(['AccountSid']);
    expect([...hiddenArguments({ AccountSid: 'x' }, 'intent')(binding())]).toEqual(['AccountSid', KEY_ARGUMENT]);
    expect([...hiddenArguments(undefined, 'intent')(binding({ keyProperty: undefined }))]).toEqual([]);
    const listed = listedToolsOf([binding()], { keySource: 'intent' })[0]!;
    expect(Object.keys(listed.inputSchema.properties as object)).toEqual(['text']);
    expect(withoutKeyArgument({ text: 'a', [KEY_ARGUMENT]: 'k' }, KEY_ARGUMENT)).toEqual({ text: 'a' });
    const args = { text: 'a' };
    expect(withoutKeyArgument(args, KEY_ARGUMENT)).toBe(args);
    expect(withoutKeyArgument(args, undefined)).toBe(args);
  });
});
