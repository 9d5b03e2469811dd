/**
 * generate's input cache and the files a spec's external `$ref`s name: an edit to one outside the input
 * folders (where the fingerprint does not look) makes the next run work, and a run whose refs did not all
 * resolve is not remembered, so the file that appears later is read. Before, both re-runs answered "up to
 * date" and left the old output in place.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

/** A spec in specs/ whose request body is a schema in ../shared/<file>, outside the input folder. */
function project(refFile: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-cache-refs-'));
  mkdirSync(join(dir, 'specs'));
  mkdirSync(join(dir, 'shared'));
  const spec = {
    openapi: '3.0.3',
    info: { title: 'Shop', version: '1' },
    paths: {
      '/orders': {
        post: {
          operationId: 'createOrder',
          requestBody: { content: { 'application/json': { schema: { $ref: `../shared/${refFile}#/Order` } } } },
          responses: { '201': { description: 'created' } },
        },
      },
    },
  };
  writeFileSync(join(dir, 'specs', 'shop.json'), JSON.stringify(spec, null, 2));
  return dir;
}

const order = (property: string): string =>
  JSON.stringify({ Order: { type: 'object', properties: { [property]: { type: 'string' } } } });

const client = (dir: string): string => readFileSync(join(dir, 'generated', 'client', 'shop.gen.ts'), 'utf8');

describe('generate cache and external refs', () => {
  it('an edit to a bundled file outside the input folders is seen by the next run', async () => {
    const dir = project('schemas.json');
    writeFileSync(join(dir, 'shared', 'schemas.json'), order('sku'));
    const first = await runCli(['generate', 'specs'], dir);
    expect(first.code).toBe(0);
    expect(client(dir)).toMatch(/\bsku\?: string/);
    const same = await runCli(['generate', 'specs'], dir);
    expect(same.stderr).toMatch(/up to date/);
    writeFileSync(join(dir, 'shared', 'schemas.json'), order('colour'));
    const edited = await runCli(['generate', 'specs'], dir);
    expect(edited.code).toBe(0);
    expect(edited.stderr).not.toMatch(/up to date/);
    expect(client(dir)).toMatch(/\bcolour\?: string/);
    expect(client(dir)).not.toMatch(/\bsku\?: string/);
  });

  it('a run whose ref did not resolve is not remembered: the file that appears later is read', async () => {
    const dir = project('later.json');
    const first = await runCli(['generate', 'specs'], dir);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/unresolved_ref/);
    const again = await runCli(['generate', 'specs'], dir);
    expect(again.stderr).not.toMatch(/up to date/);
    writeFileSync(join(dir, 'shared', 'later.json'), order('note'));
    const fixed = await runCli(['generate', 'specs'], dir);
    expect(fixed.stderr).not.toMatch(/up to date|unresolved_ref/);
    expect(client(dir)).toMatch(/\bnote\?: string/);
    // Now every ref resolves, so the run is remembered.
    expect((await runCli(['generate', 'specs'], dir)).stderr).toMatch(/up to date/);
  });
});
