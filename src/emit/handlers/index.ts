/**
 * The handlers artifact: per API with HTTP operations, `handlers/<api>.tools.gen.ts` — its `ToolBinding`s
 * and a typed `create<Api>Tools(options)` over `createToolRuntime` (issue 14). Streams binding by binding,
 * so a Graph-sized API never holds every binding's text at once.
 */
import type { ResolvedConfig } from '../../config/types.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Emitter, StreamingEmitter } from '../types.js';
import { collectFiles } from '../tools/memory-sink.js';
import { eachToolBinding, toolBindingNames } from './bindings.js';
import { handlerNames, writeBinding, writeHead, writeTail } from './render.js';

export { buildToolBindings, eachToolBinding } from './bindings.js';

export const streamHandlers: StreamingEmitter = (plan, config: ResolvedConfig, sink) => {
  const diagnostics: Diagnostic[] = [];
  for (const apiPlan of plan.apis) {
    if (!apiPlan.entries.some((e) => e.operation.kind === 'http')) continue;
    const names = handlerNames(apiPlan.api);
    const out = sink.file(`handlers/${apiPlan.api.id}.tools.gen.ts`);
    writeHead(out, apiPlan.api, names, toolBindingNames(apiPlan));
    for (const b of eachToolBinding(apiPlan, config)) writeBinding(out, b);
    writeTail(out, names);
    out.end();
  }
  return diagnostics;
};

export const emitHandlers: Emitter = (plan, config) => collectFiles(streamHandlers, plan, config);
