/**
 * Artifacts do not import each other: what two of them share comes from a stage the pipeline builds (the
 * tool model, emit/tool-model.ts) or a module outside the artifact folders. The render helpers still
 * shared across folders are listed here, so the list can only shrink: a new cross-artifact import fails.
 */
import { describe, expect, it } from 'vitest';
import { ARTIFACT_NAMES } from '../../src/emit/registry.js';
import { readImportGraph } from './import-graph.js';

/** Shared render helpers not yet moved out of an artifact's folder. */
const KNOWN = [
  'emit/handlers/bindings.ts → emit/client/key-limits.ts',
  'emit/handlers/bindings.ts → emit/client/query-style.ts',
  'emit/handlers/render.ts → emit/client/names.ts',
  'emit/handlers/render.ts → emit/tools/json.ts',
  'emit/handlers/render.ts → emit/tools/schema-text.ts',
  'emit/mcp/index.ts → emit/client/doc-lines.ts',
  'emit/mcp/index.ts → emit/sql/index.ts',
  'emit/mcp/names.ts → emit/client/names.ts',
  'emit/mcp/names.ts → emit/handlers/render.ts',
];

describe('imports between artifact folders', () => {
  const folder = (file: string): string | undefined => {
    const m = /^emit\/([^/]+)\//.exec(file);
    return m !== null && (ARTIFACT_NAMES as readonly string[]).includes(m[1]!) ? m[1] : undefined;
  };
  const crossing = readImportGraph()
    .filter((e) => !e.external && folder(e.from) !== undefined && folder(e.to) !== undefined)
    .filter((e) => folder(e.from) !== folder(e.to))
    .map((e) => `${e.from} → ${e.to}`)
    .sort();

  it('are only the known shared helpers (none new)', () => {
    expect(crossing.filter((edge) => !KNOWN.includes(edge))).toEqual([]);
  });

  it('never reach another artifact’s declaration, and the tool builders only through the tool model', () => {
    expect(crossing.filter((edge) => edge.endsWith('/artifact.ts'))).toEqual([]);
    const builders = ['tool-spec', 'to-openai', 'names', 'degrade'].map((m) => `emit/tools/${m}.ts`);
    expect(crossing.filter((edge) => builders.some((b) => edge.endsWith(b)))).toEqual([]);
  });
});
