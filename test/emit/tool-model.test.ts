/**
 * The tool model (emit/tool-model.ts) is built once per run for every artifact that consumes it: with
 * tools and handlers selected, each consumer gets every entry once, in plan order, as the same objects,
 * and each artifact's files are the bytes it writes alone.
 */
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../src/classify/types.js';
import { resolveConfig } from '../../src/config/types.js';
import { handlersConsumer } from '../../src/emit/handlers/index.js';
import { memorySink } from '../../src/emit/memory-sink.js';
import { streamToolModel, type ToolModelConsumer, type ToolModelTool } from '../../src/emit/tool-model.js';
import { toolsConsumer } from '../../src/emit/tools/index.js';
import type { EmittedFile } from '../../src/emit/types.js';
import { emitAll } from '../../src/pipeline.js';
import { fixturePlans } from './client/helpers/fixture-plans.js';
import { shopPlan } from '../runtime/tools/helpers/shop-spec.js';

async function plan(): Promise<Plan> {
  return { apis: [...(await fixturePlans()), await shopPlan('tool-model')], diagnostics: [] };
}

const under = (files: EmittedFile[], folder: string) => files.filter((f) => f.path.startsWith(`${folder}/`));

/** Wraps a consumer, recording what reaches it. */
function recording(inner: ToolModelConsumer, seen: ToolModelTool[], order: string[]): ToolModelConsumer {
  return {
    needsStrict: inner.needsStrict,
    startApi: (api) => {
      order.push(`start ${api.plan.api.id}`);
      inner.startApi(api);
    },
    tool: (api, tool) => {
      seen.push(tool);
      inner.tool(api, tool);
    },
    endApi: (api) => {
      order.push(`end ${api.plan.api.id}`);
      inner.endApi(api);
    },
    finish: () => inner.finish(),
  };
}

describe('the tool model stage', () => {
  it('gives tools and handlers run together the files and diagnostics each gives alone', async () => {
    const p = await plan();
    // With the OpenAI format, so the tools report the strict form's findings too.
    const config = (artifacts: ('handlers' | 'tools')[]) =>
      resolveConfig({ artifacts, tools: { formats: ['mcp', 'openai'] } });
    const both = await emitAll(p, config(['handlers', 'tools']));
    const handlers = await emitAll(p, config(['handlers']));
    const toolsAlone = await emitAll(p, config(['tools']));
    expect(under(both.files, 'handlers').length).toBeGreaterThan(1);
    expect(under(both.files, 'handlers')).toEqual(handlers.files);
    expect(under(both.files, 'tools')).toEqual(toolsAlone.files);
    expect(toolsAlone.diagnostics.some((d) => d.code.startsWith('tools_openai_'))).toBe(true);
    expect(both.diagnostics).toEqual([...handlers.diagnostics, ...toolsAlone.diagnostics]);
  });

  it('builds each tool once and hands the same objects to every consumer, in plan order', async () => {
    const p = await plan();
    // The OpenAI format makes the stage build the strict form, which the consumers then share too.
    const config = resolveConfig({ tools: { formats: ['mcp', 'openai'] } });
    const files: EmittedFile[] = [];
    const sink = memorySink((f) => files.push(f));
    const [toolsSeen, handlersSeen, toolsOrder, handlersOrder]: [ToolModelTool[], ToolModelTool[], string[], string[]] =
      [[], [], [], []];
    const diagnostics = streamToolModel(p, config, [
      recording(toolsConsumer(p, config, sink), toolsSeen, toolsOrder),
      recording(handlersConsumer(p, config, sink), handlersSeen, handlersOrder),
    ]);
    const keys = p.apis.flatMap((a) => a.entries.map((e) => e.operation.key));
    expect(toolsSeen.map((t) => t.spec.key)).toEqual(keys);
    expect(toolsSeen.map((t) => t.entry.operation.key)).toEqual(keys);
    expect(handlersSeen).toHaveLength(toolsSeen.length);
    handlersSeen.forEach((t, i) => {
      expect(t.spec).toBe(toolsSeen[i]!.spec);
      expect(t.strict).toBeDefined();
      expect(t.strict).toBe(toolsSeen[i]!.strict);
    });
    expect(handlersOrder).toEqual(toolsOrder);
    expect(toolsOrder).toEqual(p.apis.flatMap((a) => [`start ${a.api.id}`, `end ${a.api.id}`]));
    // One diagnostics list per consumer, in the order given; the handlers report none of their own.
    expect(diagnostics).toHaveLength(2);
    expect(diagnostics[1]).toEqual([]);
    expect(files.some((f) => f.path.startsWith('handlers/'))).toBe(true);
    expect(files.some((f) => f.path.startsWith('tools/mcp/'))).toBe(true);
  });

  it('builds no strict OpenAI form, and reports none of its findings, when no consumer writes the OpenAI format', async () => {
    const p = await plan();
    const config = resolveConfig();
    const seen: ToolModelTool[] = [];
    const sink = memorySink(() => {});
    const [toolDiagnostics] = streamToolModel(p, config, [
      recording(toolsConsumer(p, config, sink), seen, []),
      handlersConsumer(p, config, sink),
    ]);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((t) => t.strict === undefined)).toBe(true);
    expect(toolDiagnostics!.filter((d) => d.code.startsWith('tools_openai_'))).toEqual([]);
    const withOpenAi = await emitAll(p, resolveConfig({ artifacts: ['tools'], tools: { formats: ['openai'] } }));
    expect(withOpenAi.diagnostics.some((d) => d.code.startsWith('tools_openai_'))).toBe(true);
  });
});
