/**
 * Where key material comes from, as data: calls that mint random ids, clock reads, and the names
 * frameworks give the id of one tool-call emission. Patterns are `module:path` (see resolve.ts).
 */
export const RANDOM_SOURCES: readonly string[] = [
  'crypto:randomUUID',
  'crypto:randomBytes',
  'crypto:randomInt',
  'crypto:getRandomValues',
  'crypto:default.randomUUID',
  'crypto:default.randomBytes',
  'global:crypto.randomUUID',
  'global:crypto.getRandomValues',
  'global:Math.random',
  'uuid:v1',
  'uuid:v4',
  'uuid:v6',
  'uuid:v7',
  'uuid:default.v4',
  'nanoid:nanoid',
  'nanoid:customAlphabet',
  'nanoid/non-secure:nanoid',
  '@paralleldrive/cuid2:createId',
  'cuid:default',
  'ulid:ulid',
  'ulidx:ulid',
  'short-uuid:generate',
  'short-uuid:default.generate',
  'hyperid:default',
];

export const TIME_SOURCES: readonly string[] = [
  'global:Date.now',
  'global:performance.now',
  'perf_hooks:performance.now',
  'global:process.hrtime',
  'global:process.hrtime.bigint',
  'global:Date',
];

/** A property or binding with one of these names is the id of one emission of a tool call. */
export const TOOL_CALL_ID_NAMES: ReadonlySet<string> = new Set([
  'toolCallId',
  'tool_call_id',
  'toolUseId',
  'tool_use_id',
  'toolCallID',
]);

/** `toolCall.id`, `tool_call.callId`, `toolUse.id`: an `id` read off an object named like a tool call. */
export const TOOL_CALL_OBJECT = /^(tool_?call|tool_?use|function_?call)$/i;
