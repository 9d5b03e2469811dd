/**
 * OpenTelemetry for every idempotent call, through `@opentelemetry/api` only (an optional peer): the
 * application's SDK, if it registered one, decides where spans and metrics go. Without the package the
 * runtime records nothing; with it but no provider, the API's no-op tracer and meter make a call cost a
 * non-recording span and two no-op instrument calls (scripts/bench-runtime.mjs measures it).
 *
 * Names: GenAI semantic conventions where they exist (`gen_ai.operation.name = execute_tool`,
 * `gen_ai.tool.name`, `gen_ai.tool.call.id`, span name `execute_tool <tool>`), `error.type`, and our own
 * `idemgen.*` for what no convention covers (operation, mechanism, outcome, attempts, args hash).
 * The args hash is the one the dedup row stores; `idemgen audit --traces` groups repeats by it.
 */
import { createRequire } from 'node:module';
import {
  IdempotencyConflictError, IdempotencyError, IdempotencyFailedError, IdempotencyFencedError, IdempotencyInFlightError,
  IdempotencyOutcomeUnknownError, IdempotencyResultTooLargeError, IdempotencyResultUnencodableError,
} from './errors.js';

export type CallOutcome = 'executed' | 'replay' | 'conflict' | 'in_flight' | 'unknown' | 'fenced' | 'error';

/** What the state machine learns while it runs; read when the span ends. */
export interface Probe {
  attempts: number;
  /** SHA-256 of the canonical arguments (as in the row): lets `idemgen audit --traces` find repeats. */
  argsHash?: string;
}

export interface ObservedCall {
  operation: string;
  mechanism: string;
  toolName?: string | undefined;
  toolCallId?: string | undefined;
}

// The slice of @opentelemetry/api used here, spelled out so the published types do not need it.
type Attrs = Record<string, string | number | boolean>;
interface SpanLike {
  isRecording(): boolean;
  setAttributes(a: Attrs): unknown;
  setStatus(s: { code: number; message?: string }): unknown;
  recordException(e: Error): unknown;
  end(): void;
}
interface Instruments {
  calls: { add(n: number, a: Attrs): void };
  duration: { record(v: number, a: Attrs): void };
}
interface Api {
  trace: { getTracer(name: string, version?: string): { startSpan(name: string, o: { attributes: Attrs; kind: number }): SpanLike }; setSpan(c: unknown, s: SpanLike): unknown };
  metrics: { getMeterProvider(): unknown; getMeter(name: string, version?: string): {
    createCounter(n: string, o: object): Instruments['calls']; createHistogram(n: string, o: object): Instruments['duration'] } };
  context: { active(): unknown; with<R>(c: unknown, fn: () => R): R };
}

const SCOPE = 'idemgen';
const STATUS_ERROR = 2;
const SPAN_KIND_INTERNAL = 0;

let api: Api | null | undefined;
function loadApi(): Api | null {
  if (api === undefined) {
    try {
      api = createRequire(import.meta.url)('@opentelemetry/api') as Api;
    } catch {
      api = null; // not installed: telemetry is off
    }
  }
  return api;
}

export function outcomeOf(err: unknown): CallOutcome {
  if (err instanceof IdempotencyConflictError) return 'conflict';
  if (err instanceof IdempotencyInFlightError) return 'in_flight';
  if (err instanceof IdempotencyOutcomeUnknownError) return 'unknown';
  if (err instanceof IdempotencyFencedError) return 'fenced';
  // A stored failure or an unreplayable result: the call did not run again.
  if (err instanceof IdempotencyFailedError || err instanceof IdempotencyResultTooLargeError
    || err instanceof IdempotencyResultUnencodableError) return 'replay';
  return 'error';
}

export interface Telemetry {
  observe<R extends { wasReplay: boolean }>(call: ObservedCall, body: (probe: Probe) => Promise<R>): Promise<R>;
}

/** `enabled: false` (or no `@opentelemetry/api`) → a pass-through that allocates nothing per call. */
export function createTelemetry(enabled = true): Telemetry {
  const otel = enabled ? loadApi() : null;
  if (!otel) return { observe: (_call, body) => body({ attempts: 0 }) };
  const tracer = otel.trace.getTracer(SCOPE); // a proxy: follows a provider registered later
  // The metrics API has no proxy: re-fetch instruments when the global provider changes.
  let provider: unknown;
  let instruments: Instruments | undefined;
  const meter = (): Instruments => {
    const current = otel.metrics.getMeterProvider();
    if (instruments === undefined || current !== provider) {
      provider = current;
      const m = otel.metrics.getMeter(SCOPE);
      instruments = {
        calls: m.createCounter('idemgen.calls', { description: 'Idempotent calls by outcome' }),
        duration: m.createHistogram('idemgen.call.duration', { unit: 's', description: 'Idempotent call duration' }),
      };
    }
    return instruments;
  };
  const finish = (span: SpanLike, call: ObservedCall, probe: Probe, t0: number, outcome: CallOutcome, err?: unknown) => {
    const attrs: Attrs = { 'idemgen.operation': call.operation, 'idemgen.mechanism': call.mechanism, 'idemgen.outcome': outcome };
    const m = meter();
    m.calls.add(1, attrs);
    m.duration.record((performance.now() - t0) / 1000, attrs);
    if (!span.isRecording()) return span.end();
    span.setAttributes({ ...attrs, 'idemgen.attempts': probe.attempts });
    if (probe.argsHash !== undefined) span.setAttributes({ 'idemgen.args_hash': probe.argsHash });
    if (err !== undefined) {
      const type = err instanceof Error ? err.name : typeof err;
      span.setAttributes({ 'error.type': type });
      if (outcome !== 'replay' || !(err instanceof IdempotencyError)) {
        span.setStatus({ code: STATUS_ERROR, message: err instanceof Error ? err.message : String(err) });
      }
      if (err instanceof Error) span.recordException(err);
    }
    span.end();
  };
  return {
    async observe(call, body) {
      const attributes: Attrs = { 'idemgen.operation': call.operation, 'idemgen.mechanism': call.mechanism };
      if (call.toolName !== undefined) {
        attributes['gen_ai.operation.name'] = 'execute_tool';
        attributes['gen_ai.tool.name'] = call.toolName;
      }
      if (call.toolCallId !== undefined) attributes['gen_ai.tool.call.id'] = call.toolCallId;
      const name = call.toolName !== undefined ? `execute_tool ${call.toolName}` : `idempotent ${call.operation}`;
      const span = tracer.startSpan(name, { attributes, kind: SPAN_KIND_INTERNAL });
      const probe: Probe = { attempts: 0 };
      const t0 = performance.now();
      try {
        // Spans the call itself opens (an HTTP client's) become children of this one.
        const result = span.isRecording()
          ? await otel.context.with(otel.trace.setSpan(otel.context.active(), span), () => body(probe))
          : await body(probe);
        finish(span, call, probe, t0, result.wasReplay ? 'replay' : 'executed');
        return result;
      } catch (err) {
        finish(span, call, probe, t0, outcomeOf(err), err);
        throw err;
      }
    },
  };
}
