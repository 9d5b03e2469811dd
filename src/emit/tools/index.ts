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
import { DegradeLog } from './degrade.js';
import { JsonArrayWriter, renderJson } from './json.js';
import { ANTHROPIC_NAME, MCP_NAME, OPENAI_NAME, assignNames } from './names.js';
import { toAnthropicTool } from './to-anthropic.js';
import { toMcpTool } from './to-mcp.js';
import { toOpenAiTool } from './to-openai.js';
import { buildToolSpec, toolName } from './tool-spec.js';

export { KEY_PROPERTY, formatWindow, keyDescription } from './idempotency-key.js';
export type { ToolSpec } from './tool-spec.js';

function reverseMap(names: Map<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, name] of [...names.entries()].sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))) out[name] = key;
  return out;
}

/**
 * One tool at a time: its spec is built, written into all three files as JSON text and dropped, so a
 * Graph-sized API never holds every tool's schema objects at once — only the output text.
 */
function emitApi(apiPlan: ApiPlan, config: ResolvedConfig, diagnostics: Diagnostic[]): EmittedFile[] {
  const id = apiPlan.api.id;
  const named = apiPlan.entries.map((entry) => ({ key: entry.operation.key, name: toolName(entry.operation) }));
  const mcpNames = assignNames(named, MCP_NAME);
  const openAiNames = assignNames(named, OPENAI_NAME);
  const anthropicNames = assignNames(named, ANTHROPIC_NAME);
  // MCP nests the list under `tools` (items at indent 4); OpenAI and Anthropic files are bare arrays.
  const mcp = new JsonArrayWriter(2);
  const openAi = new JsonArrayWriter(1);
  const anthropic = new JsonArrayWriter(1);
  const log = new DegradeLog(id);
  const removed = new Set<string>();
  for (const entry of apiPlan.entries) {
    const spec = buildToolSpec(apiPlan, entry, config, log);
    mcp.push(toMcpTool(spec, mcpNames.get(spec.key) as string, config.tools.mcpHeader));
    anthropic.push(toAnthropicTool(spec, anthropicNames.get(spec.key) as string));
    const strict = toOpenAiTool(spec, openAiNames.get(spec.key) as string, removed);
    openAi.push(strict.tool);
    log.openAi(spec.key, spec.source, strict.encoded, strict.limits);
  }
  diagnostics.push(...log.diagnostics());
  if (removed.size > 0) {
    diagnostics.push(diagnostic('tools_openai_keywords_removed', 'info', `${id}: keywords OpenAI strict mode does not support were removed from the OpenAI tools: ${[...removed].sort().join(', ')}.`, { file: apiPlan.api.file }));
  }
  return [
    { path: `tools/mcp/${id}.tools.json`, contents: mcp.finish('{\n  "tools": ', '\n}\n') },
    { path: `tools/mcp/${id}.names.json`, contents: renderJson(reverseMap(mcpNames)) },
    { path: `tools/openai/${id}.tools.json`, contents: openAi.finish('', '\n') },
    { path: `tools/openai/${id}.names.json`, contents: renderJson(reverseMap(openAiNames)) },
    { path: `tools/anthropic/${id}.tools.json`, contents: anthropic.finish('', '\n') },
    { path: `tools/anthropic/${id}.names.json`, contents: renderJson(reverseMap(anthropicNames)) },
  ];
}

export const emitTools: Emitter = (plan, config) => {
  const diagnostics: Diagnostic[] = [];
  const files = plan.apis.flatMap((apiPlan) => emitApi(apiPlan, config, diagnostics));
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, diagnostics };
};
