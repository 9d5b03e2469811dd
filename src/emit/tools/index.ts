/**
 * `emitTools`: tool schemas for every operation of the plan (OpenAPI operations and tool-definition
 * inputs) in three forms — MCP `tools/list`, OpenAI Chat Completions (strict), Anthropic — with a
 * required, window-documented `idempotency_key` on every side-effecting tool (SOP OP-7, Case 4), plus
 * reverse maps from each emitted name to the operation key.
 */
import type { ApiPlan, Plan } from '../../classify/types.js';
import type { ResolvedConfig } from '../../config/types.js';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Emitter, FileSink } from '../types.js';
import { DegradeLog } from './degrade.js';
import { JsonArrayWriter, compactObjectText, renderJson } from './json.js';
import { compactSchemaText } from './schema-text.js';
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

/** An OpenAI tool as one line of its file: `{ type, function: { name, description, parameters, strict } }`. */
function openAiToolText(tool: Obj): string {
  const fn = tool.function as Obj;
  const parameters = compactSchemaText(fn.parameters as Obj);
  return compactObjectText(tool, { function: compactObjectText(fn, { parameters }) });
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
  // Only the formats the config asks for are written (tools.formats, default MCP). The OpenAI strict form
  // is still built for every tool: the handlers' bindings carry it (riders) and the log reports on it.
  const formats = new Set(config.tools.formats);
  // One tool per line, its JSON compact (indenting deep schemas doubled the files: Stripe's MCP file 2.55 →
  // 1.29 MB); MCP nests the list under `tools`, OpenAI and Anthropic files are bare arrays.
  const mcp = formats.has('mcp')
    ? new JsonArrayWriter(sink.file(`tools/mcp/${id}.tools.json`), 2, '{\n  "tools": ', '\n}\n')
    : undefined;
  const openAi = formats.has('openai') ? new OpenAiPartsWriter(sink, id, apiPlan.entries.length) : undefined;
  const anthropic = formats.has('anthropic')
    ? new JsonArrayWriter(sink.file(`tools/anthropic/${id}.tools.json`), 1, '', '\n')
    : undefined;
  const log = new DegradeLog(id);
  const removed = new Set<string>();
  for (const rider of riders) rider.startApi(apiPlan);
  for (const entry of apiPlan.entries) {
    const spec = buildToolSpec(apiPlan, entry, config, log);
    // Whole items are stringified here, their schemas' definitions once per run (schema-text.ts).
    if (mcp !== undefined) {
      const mcpTool = toMcpTool(spec, mcpNames.get(spec.key) as string, config.tools.mcpHeader);
      mcp.pushText(compactObjectText(mcpTool, { inputSchema: compactSchemaText(mcpTool.inputSchema as Obj) }));
    }
    if (anthropic !== undefined) {
      const anthropicTool = toAnthropicTool(spec, anthropicNames.get(spec.key) as string);
      anthropic.pushText(compactObjectText(anthropicTool, { input_schema: compactSchemaText(spec.inputSchema) }));
    }
    const strict = toOpenAiTool(spec, openAiNames.get(spec.key) as string, removed);
    openAi?.pushText(openAiToolText(strict.tool));
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
  if (openAi !== undefined && openAi.parts > 1) {
    diagnostics.push(
      diagnostic(
        'tools_openai_split',
        'info',
        `${id}: ${apiPlan.entries.length} tools are more than the ${OPENAI_MAX_TOOLS} OpenAI accepts in one request, so the OpenAI tools are split into ${openAi.parts} files (tools/openai/${id}.1.tools.json … ${id}.${openAi.parts}.tools.json); send one part per request, or narrow the tools with the config's select.`,
        { file: apiPlan.api.file },
      ),
    );
  }
  mcp?.finish();
  openAi?.finish();
  anthropic?.finish();
  for (const format of formats)
    writeWhole(sink, `tools/${format}/${id}.names.json`, renderJson(reverseMap(targetNames(apiPlan)[format])));
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
