/**
 * `emitTools`: tool schemas for every operation of the plan (OpenAPI operations and tool-definition
 * inputs) in three forms — MCP `tools/list`, OpenAI Chat Completions (strict), Anthropic — with a
 * required, window-documented `idempotency_key` on every side-effecting tool (docs/concepts.md#tool-dedup), plus
 * reverse maps from each emitted name to the operation key.
 */
import type { Plan } from '../../classify/types.js';
import type { ResolvedConfig } from '../../config/types.js';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Emitter, FileSink } from '../types.js';
import { JsonArrayWriter, compactObjectText, renderJson } from './json.js';
import { compactSchemaText } from './schema-text.js';
import { collectFiles } from '../memory-sink.js';
import { toAnthropicTool } from './to-anthropic.js';
import { toMcpTool } from './to-mcp.js';
import { OPENAI_MAX_TOOLS, OpenAiPartsWriter } from './openai-parts.js';
import { streamToolModel, type ToolModelEmit } from '../tool-model.js';

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

/** MCP nests the list under `tools` (items at indent 4); OpenAI and Anthropic files are bare arrays. */
interface OpenFiles {
  mcp: JsonArrayWriter | undefined;
  openAi: OpenAiPartsWriter | undefined;
  anthropic: JsonArrayWriter | undefined;
}

/**
 * The tools artifact as a consumer of the tool model (emit/tool-model.ts): each tool arrives built once,
 * is rendered into all three files as JSON text and dropped, so a Graph-sized API never holds every
 * tool's schema objects at once — nor, with a disk sink, their text.
 */
export const toolsConsumer: ToolModelEmit = (_plan, config, sink) => {
  const diagnostics: Diagnostic[] = [];
  // Only the formats the config asks for are written (tools.formats, default MCP). The tool model builds
  // the OpenAI strict form (and its findings) only for the `openai` format.
  const formats = new Set(config.tools.formats);
  let open: OpenFiles | undefined;
  return {
    needsStrict: formats.has('openai'),
    startApi({ plan: apiPlan }) {
      const id = apiPlan.api.id;
      // One tool per line, its JSON compact (indenting deep schemas doubled the files: Stripe's MCP file
      // 2.55 → 1.29 MB); MCP nests the list under `tools`, OpenAI and Anthropic files are bare arrays.
      open = {
        mcp: formats.has('mcp')
          ? new JsonArrayWriter(sink.file(`tools/mcp/${id}.tools.json`), 2, '{\n  "tools": ', '\n}\n')
          : undefined,
        openAi: formats.has('openai') ? new OpenAiPartsWriter(sink, id, apiPlan.entries.length) : undefined,
        anthropic: formats.has('anthropic')
          ? new JsonArrayWriter(sink.file(`tools/anthropic/${id}.tools.json`), 1, '', '\n')
          : undefined,
      };
    },
    tool({ names }, { spec, strict }) {
      const { mcp, openAi, anthropic } = open as OpenFiles;
      // Whole items are stringified here, their schemas' definitions once per run (schema-text.ts).
      if (mcp !== undefined) {
        const mcpTool = toMcpTool(spec, names.mcp.get(spec.key) as string, config.tools.mcpHeader);
        mcp.pushText(compactObjectText(mcpTool, { inputSchema: compactSchemaText(mcpTool.inputSchema as Obj) }));
      }
      if (anthropic !== undefined) {
        const anthropicTool = toAnthropicTool(spec, names.anthropic.get(spec.key) as string);
        anthropic.pushText(compactObjectText(anthropicTool, { input_schema: compactSchemaText(spec.inputSchema) }));
      }
      if (openAi !== undefined && strict !== undefined) openAi.pushText(openAiToolText(strict.tool));
    },
    endApi({ plan: apiPlan, names, log, removedKeywords: removed }) {
      const { mcp, openAi, anthropic } = open as OpenFiles;
      open = undefined;
      const id = apiPlan.api.id;
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
        writeWhole(sink, `tools/${format}/${id}.names.json`, renderJson(reverseMap(names[format])));
    },
    finish: () => diagnostics,
  };
};

/** The tools artifact alone, writing into a sink (the CLI streams it to disk: Graph's tools are ~150 MB). */
export function streamTools(plan: Plan, config: ResolvedConfig, sink: FileSink): Diagnostic[] {
  return streamToolModel(plan, config, [toolsConsumer(plan, config, sink)]).flat();
}

export const emitTools: Emitter = (plan, config) => collectFiles(streamTools, plan, config);
