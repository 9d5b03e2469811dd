/**
 * `emitTools`: tool schemas for every operation of the plan (OpenAPI operations and tool-definition
 * inputs) in three forms — MCP `tools/list`, OpenAI Chat Completions (strict), Anthropic — with a
 * required, window-documented `idempotency_key` on every side-effecting tool (docs/concepts.md#tool-dedup, Case 4), plus
 * reverse maps from each emitted name to the operation key.
 */
import type { ApiPlan, Plan } from '../../classify/types.js';
import type { ResolvedConfig } from '../../config/types.js';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Emitter, FileSink } from '../types.js';
import { DegradeLog } from './degrade.js';
import { JsonArrayWriter, objectAt, renderJson } from './json.js';
import { schemaText } from './schema-text.js';
import { collectFiles } from './memory-sink.js';
import { targetNames } from './names.js';
import { toAnthropicTool } from './to-anthropic.js';
import { toMcpTool } from './to-mcp.js';
import { toOpenAiTool } from './to-openai.js';
import { OPENAI_MAX_TOOLS, OpenAiPartsWriter } from './openai-parts.js';
import type { ToolSpecRider } from './spec-rider.js';
import { buildToolSpec } from './tool-spec.js';

export { KEY_PROPERTY, formatWindow, keyDescription } from './idempotency-key.js';
export type { ToolSpec } from './tool-spec.js';

type Obj = Record<string, unknown>;

/** An OpenAI tool as an item of its file (level 1): `{ type, function: { name, description, parameters, strict } }`. */
function openAiToolText(tool: Obj): string {
  const fn = tool.function as Obj;
  const parameters = schemaText(fn.parameters as Obj, 3);
  return objectAt(tool, 1, { function: objectAt(fn, 2, { parameters }) });
}

function reverseMap(names: Map<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, name] of [...names.entries()].sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)))
    out[name] = key;
  return out;
}

function writeWhole(sink: FileSink, path: string, contents: string): void {
  const out = sink.file(path);
  out.write(contents);
  out.end();
}

/**
 * One tool at a time: its spec is built, handed to all three files as JSON text and dropped, so a
 * Graph-sized API never holds every tool's schema objects at once — nor, with a disk sink, their text.
 */
function emitApi(
  apiPlan: ApiPlan,
  config: ResolvedConfig,
  sink: FileSink,
  diagnostics: Diagnostic[],
  riders: readonly ToolSpecRider[],
): void {
  const id = apiPlan.api.id;
  const { mcp: mcpNames, openai: openAiNames, anthropic: anthropicNames } = targetNames(apiPlan);
  // MCP nests the list under `tools` (items at indent 4); OpenAI and Anthropic files are bare arrays.
  const mcp = new JsonArrayWriter(sink.file(`tools/mcp/${id}.tools.json`), 2, '{\n  "tools": ', '\n}\n');
  const openAi = new OpenAiPartsWriter(sink, id, apiPlan.entries.length);
  const anthropic = new JsonArrayWriter(sink.file(`tools/anthropic/${id}.tools.json`), 1, '', '\n');
  const log = new DegradeLog(id);
  const removed = new Set<string>();
  for (const rider of riders) rider.startApi(apiPlan);
  for (const entry of apiPlan.entries) {
    const spec = buildToolSpec(apiPlan, entry, config, log);
    // Whole items are stringified here, their schemas' definitions once per run (schema-text.ts).
    const mcpTool = toMcpTool(spec, mcpNames.get(spec.key) as string, config.tools.mcpHeader);
    mcp.pushText(objectAt(mcpTool, 2, { inputSchema: schemaText(mcpTool.inputSchema as Obj, 3) }));
    const anthropicTool = toAnthropicTool(spec, anthropicNames.get(spec.key) as string);
    anthropic.pushText(objectAt(anthropicTool, 1, { input_schema: schemaText(spec.inputSchema, 2) }));
    const strict = toOpenAiTool(spec, openAiNames.get(spec.key) as string, removed);
    openAi.pushText(openAiToolText(strict.tool));
    log.openAi(spec.key, spec.source, strict.encoded, strict.limits);
    for (const rider of riders) rider.spec(apiPlan, entry, spec, strict);
  }
  for (const rider of riders) rider.endApi(apiPlan);
  diagnostics.push(...log.diagnostics());
  if (removed.size > 0) {
    diagnostics.push(
      diagnostic(
        'tools_openai_keywords_removed',
        'info',
        `${id}: keywords OpenAI strict mode does not support were removed from the OpenAI tools: ${[...removed].sort().join(', ')}.`,
        { file: apiPlan.api.file },
      ),
    );
  }
  if (openAi.parts > 1) {
    diagnostics.push(
      diagnostic(
        'tools_openai_split',
        'info',
        `${id}: ${apiPlan.entries.length} tools are more than the ${OPENAI_MAX_TOOLS} OpenAI accepts in one request, so the OpenAI tools are split into ${openAi.parts} files (tools/openai/${id}.1.tools.json … ${id}.${openAi.parts}.tools.json); send one part per request, or narrow the tools with the config's select.`,
        { file: apiPlan.api.file },
      ),
    );
  }
  mcp.finish();
  openAi.finish();
  anthropic.finish();
  writeWhole(sink, `tools/mcp/${id}.names.json`, renderJson(reverseMap(mcpNames)));
  writeWhole(sink, `tools/openai/${id}.names.json`, renderJson(reverseMap(openAiNames)));
  writeWhole(sink, `tools/anthropic/${id}.names.json`, renderJson(reverseMap(anthropicNames)));
}

/**
 * The tools emitter writing into a sink (the CLI streams it to disk: Graph's tools are ~150 MB). `riders`
 * get every spec as it is built (spec-rider.ts); their diagnostics follow the tools' own.
 */
export function streamTools(
  plan: Plan,
  config: ResolvedConfig,
  sink: FileSink,
  riders: readonly ToolSpecRider[] = [],
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const apiPlan of plan.apis) emitApi(apiPlan, config, sink, diagnostics, riders);
  for (const rider of riders) diagnostics.push(...rider.diagnostics());
  return diagnostics;
}

export const emitTools: Emitter = (plan, config) => collectFiles(streamTools, plan, config);
