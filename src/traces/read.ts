/**
 * Tool calls out of a recorded run, for `idemgen audit --traces FILE`. Two formats, told apart per line:
 * - OTLP JSON as the OpenTelemetry collector's file exporter writes it (one `{"resourceSpans":[…]}`
 *   per line, or one such document): spans with `gen_ai.tool.name` are tool calls. The turn is the
 *   trace; the conversation is `gen_ai.conversation.id` when set, else the trace too. Arguments come
 *   from `idemgen.args_hash` (our runtime's span) or `gen_ai.tool.call.arguments`; the outcome from
 *   `idemgen.outcome`.
 * - A plain JSONL of tool calls: `{"conversation","turn","tool","args" | "args_hash","time","outcome"?}`.
 * Arguments are hashed like the runtime does (RFC 8785 canonical JSON, SHA-256) without the
 * `idempotency_key` argument, so a retry with the same key and a re-send with a new key look alike.
 */
import { hashArgs } from '@idemgen/runtime/internal/core/canonical-json.js';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';

export interface ToolCall {
  conversation: string;
  turn: string;
  tool: string;
  /** null when the record carries no arguments: it cannot be compared. */
  argsHash: string | null;
  /** Epoch ms. */
  time: number;
  /** The runtime's outcome when it wrapped the call (`idemgen.outcome`), else null: nothing guarded it. */
  outcome: string | null;
  /** Where it came from: `line 12` or `span 5b8aa5a2d2c872e8`. */
  at: string;
}

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
type KeyValue = { key: string; value?: AnyValue };
interface OtlpSpan {
  traceId?: string;
  spanId?: string;
  startTimeUnixNano?: string | number;
  attributes?: KeyValue[];
}
interface OtlpDoc {
  resourceSpans?: { resource?: { attributes?: KeyValue[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

function attrs(list: KeyValue[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of list ?? []) {
    const v = kv.value ?? {};
    const s = v.stringValue ?? v.intValue ?? v.doubleValue ?? v.boolValue;
    if (s !== undefined) out[kv.key] = String(s);
  }
  return out;
}

function hashOf(args: unknown): string {
  const rest =
    args && typeof args === 'object' && !Array.isArray(args)
      ? Object.fromEntries(Object.entries(args as Record<string, unknown>).filter(([k]) => k !== 'idempotency_key'))
      : args;
  return hashArgs(rest ?? null);
}

/** Agent frameworks put the conversation id on the turn's root span: spread it to the whole trace. */
function conversationsOf(doc: OtlpDoc, into: Map<string, string>): void {
  for (const rs of doc.resourceSpans ?? []) {
    for (const ss of rs.scopeSpans ?? []) {
      for (const span of ss.spans ?? []) {
        const id = attrs(span.attributes)['gen_ai.conversation.id'];
        if (id !== undefined && span.traceId !== undefined) into.set(span.traceId, id);
      }
    }
  }
}

function fromSpans(doc: OtlpDoc, out: ToolCall[], conversations: Map<string, string>): void {
  for (const rs of doc.resourceSpans ?? []) {
    const resource = attrs(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const span of ss.spans ?? []) {
        const a = { ...resource, ...attrs(span.attributes) };
        const tool = a['gen_ai.tool.name'];
        if (!tool) continue;
        let argsHash = a['idemgen.args_hash'] ?? null;
        if (argsHash === null && a['gen_ai.tool.call.arguments'] !== undefined) {
          try {
            argsHash = hashOf(JSON.parse(a['gen_ai.tool.call.arguments']));
          } catch {
            argsHash = hashOf(a['gen_ai.tool.call.arguments']);
          }
        }
        const trace = span.traceId ?? 'no-trace';
        out.push({
          conversation: a['gen_ai.conversation.id'] ?? conversations.get(trace) ?? trace,
          turn: trace,
          tool,
          argsHash,
          time: Number(BigInt(span.startTimeUnixNano ?? 0) / 1_000_000n),
          outcome: a['idemgen.outcome'] ?? null,
          at: `span ${span.spanId ?? '?'}`,
        });
      }
    }
  }
}

function fromRecord(r: Record<string, unknown>, line: number): ToolCall | string {
  if (typeof r.tool !== 'string' || r.tool === '') return '"tool" (the tool name) is missing';
  const time = typeof r.time === 'number' ? r.time : typeof r.time === 'string' ? Date.parse(r.time) : NaN;
  if (!Number.isFinite(time)) return '"time" must be epoch milliseconds or an ISO 8601 date';
  const argsHash = typeof r.args_hash === 'string' ? r.args_hash : 'args' in r ? hashOf(r.args) : null;
  return {
    conversation: String(r.conversation ?? 'default'),
    turn: String(r.turn ?? line),
    tool: r.tool,
    argsHash,
    time,
    outcome: typeof r.outcome === 'string' ? r.outcome : null,
    at: `line ${line}`,
  };
}

export function readToolCalls(text: string, file: string): { calls: ToolCall[]; diagnostics: Diagnostic[] } {
  const calls: ToolCall[] = [];
  const diagnostics: Diagnostic[] = [];
  const docs: OtlpDoc[] = [];
  const conversations = new Map<string, string>();
  const trimmed = text.trim();
  // One pretty-printed OTLP document rather than JSON lines.
  if (trimmed.startsWith('{') && trimmed.includes('\n') && /"resourceSpans"/.test(trimmed.slice(0, 200))) {
    try {
      const doc = JSON.parse(trimmed) as OtlpDoc;
      conversationsOf(doc, conversations);
      fromSpans(doc, calls, conversations);
      return { calls, diagnostics };
    } catch {
      // not one document: read it line by line below
    }
  }
  text.split('\n').forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      diagnostics.push(
        diagnostic('trace_line_invalid', 'error', `Not JSON: ${(err as Error).message}`, { file, line }),
      );
      return;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      diagnostics.push(diagnostic('trace_line_invalid', 'error', 'Each line must be a JSON object', { file, line }));
      return;
    }
    if ('resourceSpans' in value) {
      docs.push(value as OtlpDoc); // a turn's spans may be spread over several export lines
      conversationsOf(value as OtlpDoc, conversations);
      return;
    }
    const call = fromRecord(value as Record<string, unknown>, line);
    if (typeof call === 'string')
      diagnostics.push(diagnostic('trace_line_invalid', 'error', call, { file, line, pointer: '' }));
    else calls.push(call);
  });
  for (const doc of docs) fromSpans(doc, calls, conversations);
  return { calls, diagnostics };
}
