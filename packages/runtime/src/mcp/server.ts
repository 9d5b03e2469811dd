/** `@idemgen/runtime/mcp`: tool runtimes on an MCP SDK server (imports the SDK, unlike `@idemgen/runtime`). */
export { registerToolRuntime } from './register.js';
export { reportStartFailure, serveStdioFromEnv } from './stdio-main.js';
export type { EnvServerOptions, StdioServerModule } from './stdio-main.js';
export type { McpToolRuntime, RegisterToolRuntimeOptions } from './register.js';
export { INTENT_META, KEY_META } from './intent.js';
export type { McpKeySource } from './intent.js';
export { outcomeToResult } from './outcome.js';
export { KEY_INSTRUCTIONS } from '../tools/key-argument.js';
export {
  MECHANISM_META,
  OPERATION_META,
  WINDOW_META,
  listedTool,
  toolMeta,
  withoutServerArguments,
} from './tool-meta.js';
export type { ListedTool } from './tool-meta.js';
export { DESCRIBE_TOOL, INVOKE_TOOL, SEARCH_TOOL, searchTools } from './dynamic.js';
export type { SearchHit } from './dynamic.js';
