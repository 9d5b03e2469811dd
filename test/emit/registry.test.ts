/**
 * The emitter registry is the one list of artifacts: config validation, the default selection and the
 * pipeline all follow from it, and an artifact defined outside it plugs into the same sink interface.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/types.js';
import { validateUserConfig } from '../../src/config/validate.js';
import { defineArtifact, fromWholeFiles } from '../../src/emit/artifact.js';
import type { Artifact } from '../../src/emit/artifact.js';
import { ARTIFACT_NAMES, configExtensions, scheduleArtifacts, selectedArtifacts } from '../../src/emit/registry.js';
import { memorySink } from '../../src/emit/memory-sink.js';
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
      consumes: ['plan'],
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

/** An artifact that only declares what it consumes (scheduling never loads it). */
const consumer = (name: string, consumes: readonly string[]): Artifact =>
  ({ name, summary: name, byDefault: false, consumes, load: async () => () => [] }) as unknown as Artifact;
const steps = (selected: readonly Artifact[], stages?: Record<string, readonly string[]>) =>
  scheduleArtifacts(selected, stages).map((s) => [s.stage, s.artifacts.map((a) => a.name)]);

describe('scheduling artifacts by what they consume', () => {
  it('builds the tool model once, after the plan, for the default artifacts that consume it', () => {
    expect(steps(selectedArtifacts(undefined))).toEqual([
      ['plan', ['client', 'mcp', 'report', 'sql']],
      ['toolModel', ['handlers', 'tools']],
    ]);
  });

  it('builds no tool model when no selected artifact consumes it', () => {
    expect(steps(selectedArtifacts(['sql', 'client']))).toEqual([['plan', ['client', 'sql']]]);
    expect(steps(selectedArtifacts(['handlers']))).toEqual([['toolModel', ['handlers']]]);
  });

  it('orders stages by what they are built from, not by declaration or artifact order', () => {
    const stages = { audit: ['index'], plan: [], index: ['plan'] };
    const selected = [
      consumer('a', ['plan', 'index', 'audit']),
      consumer('b', ['plan']),
      consumer('c', ['plan', 'index']),
      consumer('d', ['plan', 'index', 'audit']),
    ];
    expect(steps(selected, stages)).toEqual([
      ['plan', ['b']],
      ['index', ['c']],
      ['audit', ['a', 'd']],
    ]);
  });

  it('refuses a declaration that leaves out an input, names an unknown stage, or a cycle', () => {
    expect(() => scheduleArtifacts([consumer('x', ['toolModel'])])).toThrow(
      'artifact x consumes toolModel but not plan, which toolModel is built from',
    );
    expect(() => scheduleArtifacts([consumer('y', ['plan', 'graph'])])).toThrow(
      'artifact y consumes unknown stage graph',
    );
    expect(() => scheduleArtifacts([consumer('z', ['plan'])], { plan: ['loop'], loop: ['plan'] })).toThrow(
      'is built from itself',
    );
  });
});
