import path from 'node:path';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { buildApiModel } from '../../src/ir/index.js';
import { resolveRef } from '../../src/json-pointer/refs.js';
import { loadInputs } from '../../src/load/index.js';

const FIXTURES = path.resolve('test/fixtures/load');

function refsOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsOf(v, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsOf(v, out);
    }
  }
  return out;
}

describe('bundling a multi-file OpenAPI 3 spec with cross-file cycles', () => {
  it('inlines each part once, rewrites the rest to in-document refs that all resolve', async () => {
    const { docs, diagnostics } = await loadInputs(['multi-file-3'], { cwd: FIXTURES });
    expect(diagnostics).toEqual([]);
    expect(docs.map((d) => d.file)).toEqual(['multi-file-3/openapi.yaml']);
    const [doc] = docs;
    expect(doc.parts).toEqual([
      'multi-file-3/paths/pets.yaml',
      'multi-file-3/schemas/owner.yaml',
      'multi-file-3/schemas/pet.yaml',
    ]);
    const refs = refsOf(doc.root);
    expect(refs.filter((r) => !r.startsWith('#'))).toEqual([]);
    const items = '#/paths/~1pets/get/responses/200/content/application~1json/schema/items';
    expect(refs).toEqual([
      items,
      `${items}/definitions/Tag`,
      items,
      `${items}/definitions/Tag`,
      '#/components/schemas/NewPet',
      '#/components/parameters/Id',
      '#/components/schemas/Pet',
      items,
    ]);
    for (const ref of refs) expect(resolveRef(doc.root, ref), ref).toBeTypeOf('object');
    const root = doc.root as any;
    const pet = root.paths['/pets'].get.responses['200'].content['application/json'].schema.items;
    expect(pet.properties.friends.items).toEqual({
      $ref: '#/paths/~1pets/get/responses/200/content/application~1json/schema/items',
    });
    expect(pet.properties.owner.properties.pets.items).toEqual(pet.properties.friends.items);
    expect(resolveRef(doc.root, pet.properties.owner.properties.favouriteTag.$ref)).toEqual({ type: 'string' });
    expect(root.paths['/pets'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/NewPet',
    });
    // A pointer into bundled content locates at the reference site in the root file.
    expect(doc.locate('/paths/~1pets/get/operationId')).toEqual({ line: 4, col: 3 });
  });

  it('builds the operations of path items that live in other files', async () => {
    const { docs } = await loadInputs(['multi-file-3/openapi.yaml'], { cwd: FIXTURES });
    const { api, diagnostics } = buildApiModel(docs[0]);
    expect(diagnostics).toEqual([]);
    expect(api.id).toBe('multi-file-3');
    expect(api.operations.map((o) => [o.key, o.name])).toEqual([
      ['GET /pets', 'listPets'],
      ['GET /pets/{id}', 'getPetsById'],
      ['POST /pets', 'createPet'],
    ]);
  });
});

describe('bundling refs under user-chosen schema names', () => {
  it('bundles an external ref under a dependentSchemas entry named `default` (a name, not literal data)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'idemgen-depschemas-'));
    writeFileSync(path.join(dir, 'shipping.json'), JSON.stringify({ type: 'object', required: ['address'] }));
    writeFileSync(
      path.join(dir, 'openapi.json'),
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 't', version: '1' },
        paths: {},
        components: {
          schemas: { Order: { type: 'object', dependentSchemas: { default: { $ref: './shipping.json' } } } },
        },
      }),
    );
    const { docs, diagnostics } = await loadInputs(['openapi.json'], { cwd: dir });
    expect(diagnostics).toEqual([]);
    expect(refsOf(docs[0].root).filter((r) => !r.startsWith('#'))).toEqual([]);
    expect(docs[0].parts).toEqual(['shipping.json']);
  });
});
