/**
 * One request-body picker: the tool's `body` argument is read from the media type the client and the
 * operation record send (emit/media.ts), so a tool call and a client call of one operation send one body.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../src/config/types.js';
import { emitClient } from '../../../src/emit/client/index.js';
import { buildToolBindings } from '../../../src/emit/handlers/bindings.js';
import { encodingOf } from '../../../src/emit/media.js';
import { buildToolSpec } from '../../../src/emit/tools/tool-spec.js';
import { DegradeLog } from '../../../src/emit/tools/degrade.js';
import type { JsonSchema, MediaContent } from '../../../src/ir/types.js';
import { entry, httpOp, planOf } from '../../helpers/plan.js';

const obj: JsonSchema = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const media = (mediaType: string, schema: JsonSchema): MediaContent => ({
  mediaType,
  schema,
  pointer: `/rb/${mediaType}`,
});

/** Declaration orders where the old tool picker (first form type / first declared) and the client's disagreed. */
const CASES: { name: string; content: MediaContent[]; sent: string; encoding: string; raw: boolean }[] = [
  {
    name: 'multipart declared before urlencoded: form-urlencoded on both paths',
    content: [media('multipart/form-data', obj), media('application/x-www-form-urlencoded', obj)],
    sent: 'application/x-www-form-urlencoded',
    encoding: 'form',
    raw: false,
  },
  {
    name: 'text/plain declared before octet-stream: bytes on both paths',
    content: [
      media('text/plain', { type: 'string' }),
      media('application/octet-stream', { type: 'string', format: 'binary' }),
    ],
    sent: 'application/octet-stream',
    encoding: 'binary',
    raw: true,
  },
  {
    name: 'text/plain declared before NDJSON: the JSON one on both paths',
    content: [media('text/plain', { type: 'string' }), media('application/x-ndjson', obj)],
    sent: 'application/x-ndjson',
    encoding: 'json',
    raw: false,
  },
];

describe('request body media type: tool and client agree', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const op = httpOp('post', '/things', {
        operationId: 'createThing',
        requestBody: { required: true, content: c.content, pointer: '/rb' },
      });
      const plan = planOf(
        'things',
        [entry(op, 'dedup-table', { ttlSeconds: 3600 })],
        { openapi: '3.1.0' },
        'openapi3.1',
      );
      const apiPlan = plan.apis[0]!;
      const config = resolveConfig();
      // Tool path: the input builder's body and the schema the model fills in.
      const spec = buildToolSpec(apiPlan, apiPlan.entries[0]!, config, new DegradeLog('things'));
      expect(spec.http?.body?.mediaType).toBe(c.sent);
      const bodyArg = (spec.inputSchema.properties as Record<string, Record<string, unknown>>).body!;
      if (c.raw) expect(bodyArg.description).toBe(`Raw request body (${c.sent}).`);
      else expect(bodyArg.properties).toEqual({ name: { type: 'string' } });
      // Client path: the generated client's operation record (what the runtime encodes), and the tool binding's.
      const { files } = emitClient(plan, config);
      const client = files.find((f) => f.path.startsWith('client/') && f.path.endsWith('.gen.ts'))!.contents;
      const line = client.split('\n').find((l) => l.trimStart().startsWith('createThing: {'))!;
      expect(line).toContain(`body: { encoding: "${c.encoding}"`);
      if (c.raw || c.encoding === 'json') expect(line).toContain(`mediaType: "${c.sent}"`);
      expect(encodingOf(spec.http!.body!.mediaType!)).toBe(c.encoding);
      expect(buildToolBindings(apiPlan, config)[0]!.body?.encoding).toBe(c.encoding);
    });
  }
});
