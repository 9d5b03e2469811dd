/**
 * Where the generated MCP module finds its bindings: the handlers artifact's file and export for the
 * same API (its own naming function, so the two artifacts cannot drift apart).
 */
import type { ApiModel } from '../../ir/types.js';
import { pascalCase } from '../client/names.js';
import { handlerNames } from '../handlers/render.js';

export function handlersModule(apiId: string): string {
  return `../handlers/${apiId}.tools.gen.js`;
}

export function bindingsExport(api: ApiModel): string {
  return handlerNames(api).bindings;
}

export function mcpNames(apiId: string): { register: string; options: string; baseUrl: string; authEnv: string } {
  const pascal = pascalCase(apiId);
  const constant = pascal.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
  return {
    register: `register${pascal}Tools`,
    options: `${pascal}McpOptions`,
    baseUrl: `${constant}_BASE_URL`,
    authEnv: `${constant}_AUTH_ENV`,
  };
}
