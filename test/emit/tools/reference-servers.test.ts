/**
 * The tool lists of the reference MCP servers installed from npm, listed over stdio at test time
 * (test/helpers/mcp-reference.ts), through the real pipeline: goldens, Ajv 2020, OpenAI strict mode and a
 * required key on every write. Needs nothing outside the repository and node_modules.
 */
import { describe, expect, it } from 'vitest';
import { REFERENCE_SERVERS, referenceToolsFile } from '../../helpers/mcp-reference.js';
import { emitToolsFor, expectSafeTools } from './tool-checks.js';

/** The tools each server's annotations and names make writes (each must get a required key). */
const WRITES: Record<string, string[]> = {
  filesystem: ['tool:create_directory', 'tool:edit_file', 'tool:move_file', 'tool:write_file'],
  memory: [
    'tool:add_observations',
    'tool:create_entities',
    'tool:create_relations',
    'tool:delete_entities',
    'tool:delete_observations',
    'tool:delete_relations',
  ],
  everything: [
    'tool:gzip-file-as-resource',
    'tool:simulate-research-query',
    'tool:toggle-simulated-logging',
    'tool:toggle-subscriber-updates',
  ],
};

describe.each(REFERENCE_SERVERS)('reference MCP server %s', (name) => {
  it('lists tools whose emitted schemas are safe, and match the goldens', async () => {
    const file = await referenceToolsFile(name);
    const plain = await emitToolsFor(file);
    expect(plain.files.length).toBe(6);
    for (const f of plain.files)
      await expect(f.contents).toMatchFileSnapshot(`__snapshots__/reference/${name}/${f.path}`);
    const withHeader = await emitToolsFor(file, true);
    expectSafeTools(withHeader.files, withHeader.plan);
    const writes = withHeader.plan.apis[0].entries.filter((e) => e.effect === 'write');
    expect(writes.map((e) => e.operation.key)).toEqual(WRITES[name]);
  });
});
