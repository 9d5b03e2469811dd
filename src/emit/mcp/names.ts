/**
 * Where the generated MCP module finds its bindings: the handlers artifact's file and export for the
 * same API. One place, so the two artifacts cannot drift apart.
 */
import { pascalCase } from '../client/names.js';

export function handlersModule(apiId: string): string {
  return `../handlers/${apiId}.tools.gen.js`;
}

export function bindingsExport(apiId: string): string {
  const pascal = pascalCase(apiId);
  return `${pascal[0]!.toLowerCase()}${pascal.slice(1)}ToolBindings`;
}

export function mcpNames(apiId: string): { register: string; options: string; baseUrl: string; authEnv: string } {
  const pascal = pascalCase(apiId);
  const constant = pascal.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
  return { register: `register${pascal}Tools`, options: `${pascal}McpOptions`, baseUrl: `${constant}_BASE_URL`, authEnv: `${constant}_AUTH_ENV` };
}
