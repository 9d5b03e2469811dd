/**
 * Optional peer dependencies of generated code, as the project sees them: whether a package is installed
 * where the project's own imports would find it (a `node_modules/<name>` in its folder or one above).
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The MCP SDK: what `generated/mcp/*.server.gen.ts` imports (through @idemgen/runtime/mcp). */
export const MCP_SDK = '@modelcontextprotocol/sdk';

export function isInstalled(cwd: string, name: string): boolean {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', name, 'package.json'))) return true;
    if (dirname(dir) === dir) return false;
  }
}
