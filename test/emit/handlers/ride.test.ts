/**
 * The handlers riding on the tools pass (tools/spec-rider.ts): with both artifacts selected the pipeline
 * builds each tool spec once and the handlers' files are the bytes the handlers artifact writes alone;
 * the tools' files are unchanged by the rider.
 */
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../src/classify/types.js';
import { resolveConfig } from '../../../src/config/types.js';
import { handlersRider } from '../../../src/emit/handlers/index.js';
import { streamTools } from '../../../src/emit/tools/index.js';
import { memorySink } from '../../../src/emit/tools/memory-sink.js';
import type { EmittedFile } from '../../../src/emit/types.js';
import { emitAll } from '../../../src/pipeline.js';
import { fixturePlans } from '../client/helpers/fixture-plans.js';
import { shopPlan } from '../../runtime/tools/helpers/shop-spec.js';

async function plan(): Promise<Plan> {
  return { apis: [...(await fixturePlans()), await shopPlan('handlers-ride')], diagnostics: [] };
}

const under = (files: EmittedFile[], folder: string) => files.filter((f) => f.path.startsWith(`${folder}/`));

describe('handlers riding on the tools pass', () => {
  it('writes the same handlers and tools files as each artifact alone', async () => {
    const p = await plan();
    const both = await emitAll(p, resolveConfig({ artifacts: ['handlers', 'tools'] }));
    const handlers = await emitAll(p, resolveConfig({ artifacts: ['handlers'] }));
    const tools = await emitAll(p, resolveConfig({ artifacts: ['tools'] }));
    expect(under(both.files, 'handlers').length).toBeGreaterThan(1);
    expect(under(both.files, 'handlers')).toEqual(handlers.files);
    expect(under(both.files, 'tools')).toEqual(tools.files);
    expect(both.diagnostics).toEqual([...handlers.diagnostics, ...tools.diagnostics]);
  });

  it('hands the rider every entry once, in plan order, with the spec the tools render', async () => {
    const p = await plan();
    const config = resolveConfig();
    const seen: string[] = [];
    const files: EmittedFile[] = [];
    const sink = memorySink((f) => files.push(f));
    const inner = handlersRider(config, sink);
    const counting = {
      ...inner,
      spec: (...args: Parameters<typeof inner.spec>) => {
        expect(args[2].key).toBe(args[1].operation.key);
        seen.push(`${args[0].api.id} ${args[1].operation.key}`);
        inner.spec(...args);
      },
    };
    streamTools(p, config, sink, [counting]);
    expect(seen).toEqual(p.apis.flatMap((a) => a.entries.map((e) => `${a.api.id} ${e.operation.key}`)));
    expect(files.some((f) => f.path.startsWith('handlers/'))).toBe(true);
  });
});
