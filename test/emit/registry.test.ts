/**
 * The emitter registry is the one list of artifacts: config validation, the default selection and the
 * pipeline all follow from it, and an artifact defined outside it plugs into the same sink interface.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/types.js';
import { validateUserConfig } from '../../src/config/validate.js';
import { defineArtifact, fromWholeFiles } from '../../src/emit/artifact.js';
import { ARTIFACT_NAMES, configExtensions, selectedArtifacts } from '../../src/emit/registry.js';
import { memorySink } from '../../src/emit/tools/memory-sink.js';
import type { EmittedFile } from '../../src/emit/types.js';
import type { Plan } from '../../src/classify/types.js';

const emptyPlan: Plan = { apis: [], diagnostics: [] } as unknown as Plan;

describe('emitter registry', () => {
  it('defaults to every artifact marked byDefault, in name order', () => {
    const names = selectedArtifacts(undefined).map((a) => a.name);
    expect(names).toEqual([...names].sort());
    for (const name of ['client', 'report', 'sql', 'tools']) expect(names).toContain(name);
  });

  it('rejects an artifact name the registry does not know, naming the known ones', () => {
    const out = validateUserConfig({ artifacts: ['client', 'clients'] }, 'idemgen.config.json', configExtensions());
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ code: 'invalid_config', pointer: '/artifacts/1' });
    for (const name of ARTIFACT_NAMES) expect(out[0]?.message).toContain(name);
  });

  it('routes an artifact-owned config section to that artifact, with pointers below it', () => {
    const ext = configExtensions();
    const sections = {
      ...ext.sections,
      demo: (v: unknown, p: string) =>
        typeof v === 'object' ? [] : [{ pointer: `${p}/x`, message: 'demo must be an object' }],
    };
    const out = validateUserConfig({ demo: 3 }, 'c.json', { ...ext, sections });
    expect(out.map((d) => [d.pointer, d.message])).toEqual([['/demo/x', 'demo must be an object']]);
    expect(validateUserConfig({ demo: 3 }, 'c.json', ext).map((d) => d.pointer)).toEqual(['/demo']);
  });

  it('runs a whole-file artifact defined outside emit/ through the same sink interface', async () => {
    const demo = defineArtifact({
      name: 'demo',
      summary: 'a test artifact',
      byDefault: false,
      load: async () =>
        fromWholeFiles((plan) => ({
          files: [{ path: 'demo/count.txt', contents: `${plan.apis.length}\n` }],
          diagnostics: [],
        })),
    });
    const files: EmittedFile[] = [];
    const emit = await demo.load();
    expect(
      emit(
        emptyPlan,
        resolveConfig(),
        memorySink((f) => files.push(f)),
      ),
    ).toEqual([]);
    expect(files).toEqual([{ path: 'demo/count.txt', contents: '0\n' }]);
  });
});
