/**
 * What several operations write alike is written once (shared-types.ts): a long parameter type (Graph's
 * `$select` enums), a path-parameter group with its docs, an errors-map entry; a type used once stays inline,
 * and the response that is only a name goes straight into the method's signature. Type-checked under --strict
 * with a proof file that uses the shared shapes.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { emitClient } from '../../../src/emit/client/index.js';
import { typeCheck, writeBatch } from './helpers/compile.js';
import { inlinePlan } from './helpers/inline-spec.js';

const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const FIELDS = [
  'id',
  'displayName',
  'createdDateTime',
  'lastModifiedDateTime',
  'description',
  'owner',
  'parentReference',
];
const select = () => ({
  name: '$select',
  in: 'query',
  description: 'Select properties to be returned',
  schema: { type: 'array', items: { type: 'string', enum: FIELDS } },
});
const userId = () => ({
  name: 'user-id',
  in: 'path',
  required: true,
  description: 'key: id of user',
  schema: { type: 'string' },
});
const errors = () => ({
  '4XX': { description: 'client', ...json({ $ref: '#/components/schemas/ODataError' }) },
  '5XX': { description: 'server', ...json({ $ref: '#/components/schemas/ODataError' }) },
});
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Shared fixture', version: '1' },
  paths: {
    '/users/{user-id}/files': {
      get: {
        operationId: 'listFiles',
        parameters: [userId(), select()],
        responses: { 200: { description: 'ok', ...json({ $ref: '#/components/schemas/File' }) }, ...errors() },
      },
    },
    '/users/{user-id}/drafts': {
      get: {
        operationId: 'listDrafts',
        parameters: [userId(), select()],
        responses: { 200: { description: 'ok', ...json({ $ref: '#/components/schemas/File' }) }, ...errors() },
      },
    },
    '/only': {
      get: {
        operationId: 'getOnly',
        parameters: [{ name: 'order', in: 'query', schema: { type: 'string', enum: FIELDS.map((f) => `${f} desc`) } }],
        responses: { 200: { description: 'ok', ...json({ type: 'object', properties: { n: { type: 'number' } } }) } },
      },
    },
  },
  components: {
    schemas: {
      File: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
      ODataError: { type: 'object', required: ['code'], properties: { code: { type: 'string' } } },
    },
  },
};

describe('shared client types', () => {
  it('writes a repeated long parameter type, path group and errors entry once each; a single use stays inline', async () => {
    const plan = await inlinePlan('shared-types', 'shared.json', SPEC, {});
    const client = emitClient({ apis: [plan], diagnostics: [] }, resolveConfig()).files[0]!.contents;
    const count = (s: string) => client.split(s).length - 1;
    // The $select enum: one alias named after the first operation that writes it (by key: drafts), named by both requests.
    expect(count('"id" | "displayName"')).toBe(1);
    expect(client).toMatch(/^export type ListDraftsSelect = \("id" \| "displayName" .*\)\[\];$/m);
    expect(count('$select?: ListDraftsSelect;')).toBe(2);
    // The path group with its doc, named by its parameters.
    expect(client).toContain('export type UserIdPath = {\n  /** key: id of user */\n  "user-id": string;\n};');
    expect(count('path: UserIdPath;')).toBe(2);
    // The errors entry both operations share.
    expect(client).toContain('export type ErrorBodies = { "4XX": ODataError; "5XX": ODataError };');
    expect(client).toContain('"GET /users/{user-id}/files": ErrorBodies;');
    expect(client).toContain('"GET /users/{user-id}/drafts": ErrorBodies;');
    // Used once: inline, no alias.
    expect(client).toContain('order?: "id desc" | "displayName desc"');
    expect(client).not.toContain('GetOnlyOrder');
    // A response that is only a name needs no alias; an inline object keeps one.
    expect(client).toContain('Promise<File>');
    expect(client).not.toContain('ListFilesResponse');
    expect(client).toContain('export type GetOnlyResponse = {');

    const proof = [
      'import { createSharedClient, SharedClient, type ListDraftsRequest } from "./shared.gen.js";',
      'const c = createSharedClient({ baseUrl: "http://127.0.0.1:1" });',
      'const req: ListDraftsRequest = { path: { "user-id": "u1" }, query: { $select: ["id", "owner"] } };',
      'export const files: Promise<{ id: string }> = c.listFiles(req);',
      '// @ts-expect-error not one of the enum values',
      'export const bad = c.listDrafts({ path: { "user-id": "u1" }, query: { $select: ["nope"] } });',
      'export function code(err: unknown): string | undefined {',
      '  const e = SharedClient.errorOf("GET /users/{user-id}/files", err);',
      '  return e?.body.code;',
      '}',
    ].join('\n');
    const paths = writeBatch(
      'shared-types-compile',
      new Map([
        ['shared.gen.ts', client],
        ['proof.ts', proof],
      ]),
    );
    expect(typeCheck(paths)).toEqual(
      new Map([
        ['shared.gen.ts', []],
        ['proof.ts', []],
      ]),
    );
  });
});
