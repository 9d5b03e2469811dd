/**
 * What `tools/list` shows for one tool per operation, apart from registering it: no MCP SDK import, so
 * `idemgen serve` can build its listing while the SDK is still loading (or in its analysis worker).
 */
import { hiddenArguments } from '../tools/key-argument.js';
import type { ToolBinding } from '../tools/types.js';
import { compactListedTool } from './compact.js';
import type { RegisterToolRuntimeOptions } from './register.js';
import { listedTool, type ListedTool } from './tool-meta.js';

/** The hidden arguments of a binding: the server's own, and under `keySource: 'intent'` the key (key-argument.ts). */
export function hiddenOf(
  options: Pick<RegisterToolRuntimeOptions, 'serverArguments' | 'keySource'>,
): (b: ToolBinding) => ReadonlySet<string> {
  return hiddenArguments(options.serverArguments, options.keySource);
}

/** One listed tool per binding as `tools/list` shows it under these options (without `dynamic`). */
export function listedToolsOf(
  bindings: readonly ToolBinding[],
  options: Pick<RegisterToolRuntimeOptions, 'serverArguments' | 'keySource' | 'compact'> = {},
): ListedTool[] {
  const hidden = hiddenOf(options);
  return bindings.map((b) =>
    options.compact ? compactListedTool(listedTool(b, hidden(b)), b) : listedTool(b, hidden(b)),
  );
}
