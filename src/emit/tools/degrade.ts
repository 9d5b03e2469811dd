/**
 * Per-API diagnostics for what the tool emitter had to degrade. One Graph-sized API repeats the same
 * warning for thousands of tools; a reader needs the kind, how many, a few examples and where the first
 * one is — so each kind is reported once per API (the first occurrence's pointer), not once per tool.
 */
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { SourceRef } from '../../ir/types.js';
import { SCHEMA_BUDGET_CHARS } from './budget.js';

/** How many tools are named in an aggregated message, and how many paths per tool. */
const SHOWN_TOOLS = 3;
const SHOWN_PATHS = 5;

interface Occurrence {
  key: string;
  details: string[];
  source: SourceRef;
}

function list(items: string[], max: number): string {
  return items.slice(0, max).join(', ') + (items.length > max ? `, … (${items.length} in all)` : '');
}

const ENCODED_HINT =
  'Give the schema explicit properties (no free-form objects or untyped values) to keep it structured.';

export class DegradeLog {
  private readonly encoded: Occurrence[] = [];
  private readonly limits: Occurrence[] = [];
  private readonly unresolved = new Map<string, Occurrence[]>();
  private readonly budget: Occurrence[] = [];

  constructor(private readonly apiId: string) {}

  openAi(key: string, source: SourceRef, encodedPaths: string[], limits: string[]): void {
    if (limits.length > 0) this.limits.push({ key, details: limits, source });
    if (encodedPaths.length > 0) this.encoded.push({ key, details: encodedPaths, source });
  }

  /** A tool whose input schema went over the size budget `budget` (budget.ts): `count` definitions became placeholders. */
  trimmed(key: string, source: SourceRef, count: number, budget = SCHEMA_BUDGET_CHARS): void {
    this.budget.push({ key, details: [String(count), String(budget)], source });
  }

  unresolvedRef(key: string, source: SourceRef, ref: string): void {
    const seen = this.unresolved.get(ref) ?? [];
    seen.push({ key, details: [], source });
    this.unresolved.set(ref, seen);
  }

  diagnostics(): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (const [ref, seen] of this.unresolved) {
      const what =
        seen.length === 1
          ? seen[0].key
          : `${this.apiId}: ${seen.length} tools (${list(
              seen.map((s) => s.key),
              SHOWN_TOOLS,
            )})`;
      out.push(
        diagnostic(
          'tools_unresolved_ref',
          'warning',
          `${what}: $ref ${ref} cannot be resolved; the tool schema leaves that value unconstrained.`,
          where(seen[0]),
        ),
      );
    }
    if (this.budget.length > 0) {
      const n = this.budget.length;
      const shown = list(
        this.budget.map((o) => o.key),
        SHOWN_TOOLS,
      );
      const message = `${this.apiId}: ${n} tool input schema${n === 1 ? '' : 's'} exceeded ${this.budget[0]!.details[1]} characters (${shown}); their most deeply nested definitions were replaced by open placeholders that point to the API documentation.`;
      out.push(
        diagnostic('tools_schema_trimmed', 'info', message, {
          ...where(this.budget[0]),
          hint: 'config tools.schemaBudget sets the budget: characters of compact JSON per tool input schema',
        }),
      );
    }
    if (this.limits.length > 0) {
      const what = this.summary(this.limits, (o) => `the OpenAI strict schema exceeds ${o.details.join(', ')}`);
      out.push(
        diagnostic(
          'tools_openai_limit_exceeded',
          'warning',
          `${what}; the largest arguments are sent as JSON-encoded strings.`,
          where(this.limits[0]),
        ),
      );
    }
    if (this.encoded.length > 0) {
      const what = this.summary(
        this.encoded,
        (o) => `OpenAI strict mode cannot express ${list(o.details, SHOWN_PATHS)}`,
      );
      out.push(
        diagnostic(
          'tools_openai_json_encoded',
          'warning',
          `${what}; those values are JSON-encoded strings in the OpenAI tools.`,
          { ...where(this.encoded[0]), hint: ENCODED_HINT },
        ),
      );
    }
    return out;
  }

  /** `KEY: <detail>` for one tool; the count and the first few tools for many. */
  private summary(seen: Occurrence[], detail: (o: Occurrence) => string): string {
    if (seen.length === 1) return `${seen[0].key}: ${detail(seen[0])}`;
    const shown = seen
      .slice(0, SHOWN_TOOLS)
      .map((o) => `${o.key}: ${detail(o)}`)
      .join('; ');
    const more = seen.length > SHOWN_TOOLS ? `; and ${seen.length - SHOWN_TOOLS} more` : '';
    return `${this.apiId}, ${seen.length} tools — ${shown}${more}`;
  }
}

function where(o: Occurrence): { file: string; pointer?: string } {
  return { file: o.source.file, pointer: o.source.pointer };
}
