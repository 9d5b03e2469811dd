/**
 * The tool lists of the reference MCP servers installed from npm, listed over stdio at test time
 * (test/helpers/mcp-reference.ts), through the real pipeline: goldens, Ajv 2020, OpenAI strict mode and a
 * required key on every write. Needs nothing outside the repository and node_modules.
 */
import { describe, expect, it } from 'vitest';
import { REFERENCE_SERVERS, referenceToolsFile } from '../../helpers/mcp-reference.js';
import { emitToolsFor, expectSafeTools } from './tool-checks.js';

describe.each(REFERENCE_SERVERS)('reference MCP server %s', (name) => {
  it('lists tools whose emitted schemas are safe, and match the goldens', async () => {
    const file = await referenceToolsFile(name);
    const plain = await emitToolsFor(file);
    expect(plain.files.length).toBe(6);
    for (const f of plain.files) await expect(f.contents).toMatchFileSnapshot(`__snapshots__/reference/${name}/${f.path}`);
    const withHeader = await emitToolsFor(file, true);
    expectSafeTools(withHeader.files, withHeader.plan);
    const writes = withHeader.plan.apis[0].entries.filter((e) => e.effect === 'write');
    expect(writes.length).toBeGreaterThan(0);
  });
});
