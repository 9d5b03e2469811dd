/**
 * The streaming path (`generate`: emitEach → staging folder, tool JSON written chunk by chunk) and the
 * in-memory path (`emitAll`/`emitTools`: the library and `check`) must give the same bytes.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { compareSink, listFiles, stageOutput } from '../../src/cli/output-dir.js';
import { resolveConfig } from '../../src/config/types.js';
import { emitTools, streamTools } from '../../src/emit/tools/index.js';
import { memorySink } from '../../src/emit/memory-sink.js';
import type { EmittedFile } from '../../src/emit/types.js';
import { analyze, emitAll, emitEach } from '../../src/pipeline.js';
import { ROOT, runCli } from '../helpers/cli.js';
import { referenceToolsFile } from '../helpers/mcp-reference.js';

const asMap = (files: EmittedFile[]): Record<string, string> =>
  Object.fromEntries(files.map((f) => [f.path, f.contents]));
const readDir = (dir: string): Record<string, string> =>
  Object.fromEntries(listFiles(dir).map((p) => [p, readFileSync(join(dir, p), 'utf8')]));
const scratch = (): string => join(mkdtempSync(join(tmpdir(), 'idemgen-stream-')), 'out');

describe('streaming and in-memory emit give identical files', () => {
  test('every artifact of specs/', async () => {
    const config = resolveConfig({ tools: { formats: ['mcp', 'openai', 'anthropic'] } });
    const analysis = await analyze([join(ROOT, 'specs')], config, ROOT);
    const inMemory = await emitAll(analysis.plan, config);
    const out = scratch();
    const staging = stageOutput(out);
    const diagnostics = await emitEach(analysis.plan, config, staging);
    staging.commit();
    const onDisk = readDir(out);
    expect(Object.keys(onDisk).some((p) => p.startsWith('tools/openai/'))).toBe(true);
    expect(onDisk).toEqual(asMap(inMemory.files));
    expect(diagnostics).toEqual(inMemory.diagnostics);
  });

  test('a real MCP tool list (reference filesystem server), through the tools emitter alone', async () => {
    const config = resolveConfig({ tools: { mcpHeader: true, formats: ['mcp', 'openai', 'anthropic'] } });
    const analysis = await analyze([await referenceToolsFile('filesystem')], config, ROOT);
    const inMemory = emitTools(analysis.plan, config);
    const out = scratch();
    const staging = stageOutput(out);
    const diagnostics = streamTools(analysis.plan, config, staging);
    staging.commit();
    expect(inMemory.files).toHaveLength(6);
    expect(readDir(out)).toEqual(asMap(inMemory.files));
    expect(diagnostics).toEqual(inMemory.diagnostics);
  });
});

describe('sinks', () => {
  test('the memory sink refuses writes after end and a second end', () => {
    const got: EmittedFile[] = [];
    const file = memorySink((f) => got.push(f)).file('a.json');
    file.write('[');
    file.write(']');
    file.end();
    expect(got).toEqual([{ path: 'a.json', contents: '[]' }]);
    expect(() => file.write('x')).toThrow(/after end/);
    expect(() => file.end()).toThrow(/twice/);
  });

  test('compareSink reports changed, missing and extra files as they stream', async () => {
    const config = resolveConfig({ tools: { formats: ['mcp', 'openai', 'anthropic'] } });
    const analysis = await analyze([join(ROOT, 'specs')], config, ROOT);
    const out = scratch();
    const staging = stageOutput(out);
    await emitEach(analysis.plan, config, staging);
    staging.commit();
    const compare = compareSink(out);
    const first = compare.sink.file('tools/openai/extra-api.tools.json');
    first.write('[]\n');
    first.end();
    const paths = listFiles(out);
    const edited = compare.sink.file(paths[0]);
    edited.write(`${readFileSync(join(out, paths[0]), 'utf8')} `);
    edited.end();
    const text = readFileSync(join(out, paths[1]), 'utf8');
    const same = compare.sink.file(paths[1]);
    for (let i = 0; i < text.length; i += 7) same.write(text.slice(i, i + 7));
    same.end();
    const truncated = compare.sink.file(paths[2]);
    truncated.write(readFileSync(join(out, paths[2]), 'utf8').slice(0, -1));
    truncated.end();
    expect(compare.count()).toBe(4);
    expect(compare.report()).toEqual({
      missing: ['tools/openai/extra-api.tools.json'],
      changed: [paths[0], paths[2]].sort(),
      extra: paths.slice(3),
    });
  });

  test('an aborted staging folder closes its open files and leaves nothing behind', () => {
    const out = scratch();
    const staging = stageOutput(out);
    staging.file('tools/mcp/half.tools.json').write('{"tools": [');
    staging.abort();
    expect(listFiles(join(out, '..'))).toEqual([]);
  });
});

describe("generate's write step", () => {
  test('multi-byte text across its 1 MiB write batches: the files on disk are the emitted text, with and without the cache', async () => {
    // 1-, 2-, 3- and 4-byte UTF-8 characters (and a surrogate pair split nowhere), so chunks end at every offset.
    const words = 'Zahlung für Köln — 東京の支払い 😀 ok ';
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 400; i++)
      paths[`/orders${i}`] = {
        post: {
          operationId: `createOrder${i}`,
          description: `${words.repeat(40 + (i % 7))}#${i}`,
          requestBody: {
            content: {
              'application/json': {
                schema: { type: 'object', properties: { note: { type: 'string', description: words.repeat(20) } } },
              },
            },
          },
          responses: { '201': { description: `créé ${i}` } },
        },
      };
    const dir = mkdtempSync(join(tmpdir(), 'idemgen-write-'));
    const spec = join(dir, 'big.json');
    writeFileSync(spec, JSON.stringify({ openapi: '3.0.3', info: { title: 'Big', version: '1' }, paths }));
    const config = resolveConfig({});
    const expected = asMap((await emitAll((await analyze([spec], config, dir)).plan, config)).files);
    const sizes = Object.values(expected).map((t) => Buffer.byteLength(t));
    expect(sizes.filter((n) => n > 1 << 20).length).toBeGreaterThan(1);
    for (const flags of [['--no-cache'], []]) {
      const out = join(dir, `out${flags.length}`);
      const run = await runCli(['generate', spec, '--out', out, ...flags], dir, { quiet: true });
      expect(run.code, run.stderr).toBe(0);
      expect(readDir(out)).toEqual(expected);
    }
  }, 120_000);
});
