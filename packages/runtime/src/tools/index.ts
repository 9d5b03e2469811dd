/**
 * `@idemgen/runtime/tools` — the tool runtime: `ToolBinding` data (generated `handlers/<api>.tools.gen.ts`,
 * or built in memory by `idemgen serve`) → one model tool call, one HTTP effect.
 */
export { createToolRuntime } from './runtime.js';
export { parseToolBindings } from './bindings-file.js';
export type { ToolRuntime, ToolRuntimeOptions } from './runtime.js';
export type { ToolAuth, ToolAuthOption, ToolCredential } from './auth.js';
export { decodeArguments } from './decode.js';
export { parseApiError } from './api-error.js';
export { toToolError } from './outcome.js';
export type { ArgumentIssue } from './validate.js';
export type { LegacyToolBinding } from './legacy-binding.js';
export type {
  ArgRoute,
  BindingMechanism,
  BindingSecurity,
  ToolBinding,
  ToolCallContext,
  ToolCallError,
  ToolOutcome,
} from './types.js';
