/**
 * The input formats idemgen reads. The loader owns them: it decides a document's format from its content
 * (`detect.ts`) and every later stage reads `LoadedDoc.format` instead of looking again.
 */
export type SpecFormat = 'openapi2' | 'openapi3.0' | 'openapi3.1';
export type ToolFormat = 'mcp' | 'openai-chat' | 'openai-responses' | 'anthropic';

/** One entry of a tool list with the format it matches; `undefined` when it is no tool in any known format. */
interface ToolItem {
  value: unknown;
  format: ToolFormat | undefined;
}

/** Where a document's tool array sits (`''`, `/tools`, `/result/tools`) and its entries, in order. */
export interface ToolList {
  pointer: string;
  items: ToolItem[];
}
