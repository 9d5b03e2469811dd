/**
 * `emitTools`: tool schemas for every operation of the plan (OpenAPI operations and tool-definition
 * inputs) in three forms — MCP `tools/list`, OpenAI Chat Completions (strict), Anthropic — with a
 * required, window-documented `idempotency_key` on every side-effecting tool (SOP OP-7, Case 4), plus
 * reverse maps from each emitted name to the operation key.
 */
import type { ApiPlan } from '../../classify/types.js';
import type { ResolvedConfig } from '../../config/types.js';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { EmittedFile, Emitter } from '../types.js';
import { renderJson } from './json.js';
import { ANTHROPIC_NAME, MCP_NAME, OPENAI_NAME, assignNames } from './names.js';
import { toAnthropic } from './to-anthropic.js';
import { toMcp } from './to-mcp.js';
import { toOpenAi } from './to-openai.js';
import { buildToolSpec, type ToolSpec } from './tool-spec.js';

export { KEY_PROPERTY, formatWindow, keyDescription } from './idempotency-key.js';
export type { ToolSpec } from './tool-spec.js';

function reverseMap(names: Map<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, name] of [...names.entries()].sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))) out[name] = key;
  return out;
}

function emitApi(apiPlan: ApiPlan, config: ResolvedConfig, diagnostics: Diagnostic[]): EmittedFile[] {
  const id = apiPlan.api.id;
  const specs: ToolSpec[] = apiPlan.entries.map((entry) => buildToolSpec(apiPlan, entry, config, diagnostics));
  const mcpNames = assignNames(specs, MCP_NAME);
  const openAiNames = assignNames(specs, OPENAI_NAME);
  const anthropicNames = assignNames(specs, ANTHROPIC_NAME);
  const openAi = toOpenAi(specs, openAiNames);
  diagnostics.push(...openAi.diagnostics);
  if (openAi.removed.size > 0) {
    diagnostics.push(diagnostic('tools_openai_keywords_removed', 'info', `${id}: keywords OpenAI strict mode does not support were removed from the OpenAI tools: ${[...openAi.removed].sort().join(', ')}.`, { file: apiPlan.api.file }));
  }
  return [
    { path: `tools/mcp/${id}.tools.json`, contents: renderJson(toMcp(specs, mcpNames, config.tools.mcpHeader)) },
    { path: `tools/mcp/${id}.names.json`, contents: renderJson(reverseMap(mcpNames)) },
    { path: `tools/openai/${id}.tools.json`, contents: renderJson(openAi.tools) },
    { path: `tools/openai/${id}.names.json`, contents: renderJson(reverseMap(openAiNames)) },
    { path: `tools/anthropic/${id}.tools.json`, contents: renderJson(toAnthropic(specs, anthropicNames)) },
    { path: `tools/anthropic/${id}.names.json`, contents: renderJson(reverseMap(anthropicNames)) },
  ];
}

export const emitTools: Emitter = (plan, config) => {
  const diagnostics: Diagnostic[] = [];
  const files = plan.apis.flatMap((apiPlan) => emitApi(apiPlan, config, diagnostics));
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, diagnostics };
};
