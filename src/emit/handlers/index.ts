/**
 * The handlers artifact: per API with HTTP operations, `handlers/<api>.tools.gen.ts` — its `ToolBinding`s
 * and a typed `create<Api>Tools(options)` over `createToolRuntime` (issue 14). Streams binding by binding,
 * so a Graph-sized API never holds every binding's text at once. When the tools artifact runs too, the
 * handlers ride on its pass (tools/spec-rider.ts) and take each tool spec from it instead of rebuilding it.
 */
import type { ApiPlan } from '../../classify/types.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Emitter, FileWriter, StreamingEmitter } from '../types.js';
import { collectFiles } from '../tools/memory-sink.js';
import type { ToolSpecRider, ToolSpecRiderFactory } from '../tools/spec-rider.js';
import { bindingOf, specOf, toolBindingNames } from './bindings.js';
// The tools artifact's own names, so a binding answers to the names in its files.
import { targetNames, type TargetNames } from '../tools/names.js';
import { handlerNames, writeBinding, writeHead, writeTail, type HandlerNames } from './render.js';

export { buildToolBindings, eachToolBinding } from './bindings.js';

/** An API gets a handlers file only if it has an HTTP operation (a tool-definition input has no request). */
const hasHttp = (apiPlan: ApiPlan): boolean => apiPlan.entries.some((e) => e.operation.kind === 'http');

export const handlersRider: ToolSpecRiderFactory = (config, sink) => {
  let open: { out: FileWriter; names: HandlerNames; tools: TargetNames } | undefined;
  return {
    startApi(apiPlan) {
      if (!hasHttp(apiPlan)) return;
      const names = handlerNames(apiPlan.api);
      const out = sink.file(`handlers/${apiPlan.api.id}.tools.gen.ts`);
      writeHead(out, apiPlan.api, names, toolBindingNames(apiPlan));
      open = { out, names, tools: targetNames(apiPlan) };
    },
    spec(apiPlan, entry, spec, strict) {
      const op = entry.operation;
      if (open === undefined || op.kind !== 'http') return;
      writeBinding(open.out, bindingOf(apiPlan, entry, op, open.tools, config, { spec, strict }));
    },
    endApi() {
      if (open === undefined) return;
      writeTail(open.out, open.names);
      open.out.end();
      open = undefined;
    },
    diagnostics: (): Diagnostic[] => [],
  };
};

/** Alone (without the tools artifact): the same rider, fed specs built here for HTTP entries only. */
export const streamHandlers: StreamingEmitter = (plan, config, sink) => {
  const rider: ToolSpecRider = handlersRider(config, sink);
  for (const apiPlan of plan.apis) {
    if (!hasHttp(apiPlan)) continue;
    const names = targetNames(apiPlan);
    rider.startApi(apiPlan);
    for (const entry of apiPlan.entries) {
      if (entry.operation.kind !== 'http') continue;
      const { spec, strict } = specOf(apiPlan, entry, names, config);
      rider.spec(apiPlan, entry, spec, strict);
    }
    rider.endApi(apiPlan);
  }
  return rider.diagnostics();
};

export const emitHandlers: Emitter = (plan, config) => collectFiles(streamHandlers, plan, config);
