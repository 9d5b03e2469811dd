/**
 * OpenAI takes at most 128 tools per request, so an API with more operations gets its OpenAI tools in
 * parts of ≤ 128 (`<api>.1.tools.json`, `<api>.2.tools.json`, …, in operation-key order, so related paths
 * tend to share a part). MCP and Anthropic stay one file: MCP clients page `tools/list` themselves.
 */
import type { FileSink } from '../types.js';
import { JsonArrayWriter } from './json.js';

export const OPENAI_MAX_TOOLS = 128;

function openAiPartCount(total: number): number {
  return total <= OPENAI_MAX_TOOLS ? 1 : Math.ceil(total / OPENAI_MAX_TOOLS);
}

function openAiPartPath(id: string, part: number, parts: number): string {
  return parts === 1 ? `tools/openai/${id}.tools.json` : `tools/openai/${id}.${part}.tools.json`;
}

/** A JSON array writer that moves to the next part file every 128 items. */
export class OpenAiPartsWriter {
  private current: JsonArrayWriter | undefined;
  private inPart = 0;
  private part = 0;
  readonly parts: number;

  constructor(
    private readonly sink: FileSink,
    private readonly id: string,
    total: number,
  ) {
    this.parts = openAiPartCount(total);
  }

  /** An item given as its unescaped `jsonAt(item, 1)` text. */
  pushText(text: string): void {
    if (this.current === undefined || this.inPart === OPENAI_MAX_TOOLS) this.next();
    (this.current as JsonArrayWriter).pushText(text);
    this.inPart += 1;
  }

  private next(): void {
    this.current?.finish();
    this.part += 1;
    this.inPart = 0;
    this.current = new JsonArrayWriter(this.sink.file(openAiPartPath(this.id, this.part, this.parts)), 1, '', '\n');
  }

  finish(): void {
    if (this.current === undefined) this.next(); // no tools: still one (empty) file, as before
    (this.current as JsonArrayWriter).finish();
  }
}
