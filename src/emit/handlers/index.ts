/**
 * The handlers artifact: per API with HTTP operations, `handlers/<api>.bindings.gen.ts` (its `ToolBinding`s as
 * JSON text) and `handlers/<api>.tools.gen.ts`, which parses them at load, with a typed `create<Api>Tools(options)` over
 * `createToolRuntime`. A consumer of the tool model (emit/tool-model.ts): each binding is written from the tool the model built once for the run,
 * binding by binding, so a Graph-sized API never holds every binding's text at once.
 */
import type { ApiPlan } from '../../classify/types.js';
import type { Emitter, FileWriter, StreamingEmitter } from '../types.js';
import { collectFiles } from '../memory-sink.js';
import { streamToolModel, type ToolModelEmit } from '../tool-model.js';
import { bindingOf, toolBindingNames } from './bindings.js';
import {
  BindingsJson,
  bindingsModule,
  bindingsModuleWriter,
  handlerNames,
  writeHead,
  writeTail,
  type HandlerNames,
} from './render.js';

export { buildToolBindings, eachToolBinding } from './bindings.js';

/** An API gets a handlers file only if it has an HTTP operation (a tool-definition input has no request). */
const hasHttp = (apiPlan: ApiPlan): boolean => apiPlan.entries.some((e) => e.operation.kind === 'http');

export const handlersConsumer: ToolModelEmit = (_plan, config, sink) => {
  let open: { out: FileWriter; json: BindingsJson; names: HandlerNames } | undefined;
  return {
    startApi({ plan: apiPlan }) {
      if (!hasHttp(apiPlan)) return;
      const names = handlerNames(apiPlan.api);
      const out = sink.file(`handlers/${apiPlan.api.id}.tools.gen.ts`);
      writeHead(out, apiPlan.api, names, toolBindingNames(apiPlan));
      const data = bindingsModuleWriter(sink.file(`handlers/${bindingsModule(apiPlan.api.id)}`), apiPlan.api);
      open = { out, json: new BindingsJson(data), names };
    },
    tool(api, { entry, spec }) {
      const op = entry.operation;
      if (open === undefined || op.kind !== 'http') return;
      open.json.write(bindingOf(api.plan, entry, op, api.names, config, { spec }));
    },
    endApi() {
      if (open === undefined) return;
      writeTail(open.out, open.names);
      open.out.end();
      open.json.end();
      open = undefined;
    },
    finish: () => [],
  };
};

/** The handlers artifact alone (the library, tests): the tool model run for this one consumer. */
export const streamHandlers: StreamingEmitter = (plan, config, sink) =>
  streamToolModel(plan, config, [handlersConsumer(plan, config, sink)]).flat();

export const emitHandlers: Emitter = (plan, config) => collectFiles(streamHandlers, plan, config);
