/**
 * OpenTelemetry for every idempotent call, through `@opentelemetry/api` only (an optional peer): the
 * application's SDK, if it registered one, decides where spans and metrics go. Without the package the
 * runtime records nothing. With it but no provider registered, each call asks the API whether a tracer
 * or meter provider is now registered (two global lookups) and, when neither is, runs the call with no
 * span, no attributes and no clock reads (scripts/bench-runtime.mjs measures the ratio).
 *
 * Names: GenAI semantic conventions where they exist (`gen_ai.operation.name = execute_tool`,
 * `gen_ai.tool.name`, `gen_ai.tool.call.id`, span name `execute_tool <tool>`), `error.type`, and our own
 * `idemgen.*` for what no convention covers (operation, mechanism, outcome, attempts, args hash).
 * The args hash is the one the dedup row stores; `idemgen audit --traces` groups repeats by it.
 */
import { createRequire } from 'node:module';
import {
  IdempotencyConflictError,
  IdempotencyError,
  IdempotencyFailedError,
  IdempotencyFencedError,
  IdempotencyInFlightError,
  IdempotencyOutcomeUnknownError,
  IdempotencyResultTooLargeError,
  IdempotencyResultUnencodableError,
} from './errors.js';

export type CallOutcome = 'executed' | 'replay' | 'conflict' | 'in_flight' | 'unknown' | 'fenced' | 'error';

/** What the state machine learns while it runs; read when the span ends. */
export interface Probe {
  attempts: number;
  /** SHA-256 of the canonical arguments (as in the row): lets `idemgen audit --traces` find repeats. */
  argsHash?: string;
  /** The repeated-intent soft guard flagged this new intent (recent-similar.ts): when the similar one completed. */
  recentSimilarAt?: number;
}

/** Where a replay came from when the store was not asked (the MCP middleware's tool-dedup window). */
export type AnsweredFrom = 'window';

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
  ProxyTracerProvider: new () => { getDelegate(): unknown };
  trace: {
    getTracerProvider(): unknown;
    getTracer(
      name: string,
      version?: string,
    ): { startSpan(name: string, o: { attributes: Attrs; kind: number }): SpanLike };
    setSpan(c: unknown, s: SpanLike): unknown;
  };
  metrics: {
    getMeterProvider(): unknown;
    getMeter(
      name: string,
      version?: string,
    ): {
      createCounter(n: string, o: object): Instruments['calls'];
      createHistogram(n: string, o: object): Instruments['duration'];
    };
  };
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

function outcomeOf(err: unknown): CallOutcome {
  if (err instanceof IdempotencyConflictError) return 'conflict';
  if (err instanceof IdempotencyInFlightError) return 'in_flight';
  if (err instanceof IdempotencyOutcomeUnknownError) return 'unknown';
  if (err instanceof IdempotencyFencedError) return 'fenced';
  // A stored failure or an unreplayable result: the call did not run again.
  if (
    err instanceof IdempotencyFailedError ||
    err instanceof IdempotencyResultTooLargeError ||
    err instanceof IdempotencyResultUnencodableError
  )
    return 'replay';
  return 'error';
}

export interface Telemetry {
  /** `call` is built only when something records (no allocation on the no-provider path). */
  observe<R extends { wasReplay: boolean }>(call: () => ObservedCall, body: (probe: Probe) => Promise<R>): Promise<R>;
  /** A repeat answered without the store (a window hit): a replay span of its own, marked with where from. */
  answered(call: ObservedCall, from: AnsweredFrom, argsHash: string): void;
}

const OFF: Telemetry = { observe: (_call, body) => body({ attempts: 0 }), answered: () => undefined };

/**
 * Whether anything would record: a registered tracer provider (the global one is a proxy whose delegate
 * is the API's no-op until an SDK registers) or a registered meter provider (the API has no proxy for
 * metrics; unregistered, it hands out its no-op provider). Asked per call, so an SDK registered later counts.
 */
function recorderCheck(otel: Api): () => boolean {
  const noopTracing = new otel.ProxyTracerProvider().getDelegate();
  return () => {
    const tp = otel.trace.getTracerProvider() as { getDelegate?: () => unknown };
    if (typeof tp.getDelegate !== 'function' || tp.getDelegate() !== noopTracing) return true;
    return (otel.metrics.getMeterProvider() as object).constructor?.name !== 'NoopMeterProvider';
  };
}

/**
 * `enabled: false` (or no `@opentelemetry/api`) → a pass-through that allocates nothing per call. The API
 * package loads on the first call, not here: a server that builds hundreds of tool runtimes at start-up
 * (`idemgen serve`) answers `tools/list` without it.
 */
export function createTelemetry(enabled = true): Telemetry {
  if (!enabled) return OFF;
  let ready: Telemetry | undefined;
  const get = (): Telemetry => {
    ready ??= withApi(loadApi());
    return ready;
  };
  return {
    observe: (call, body) => get().observe(call, body),
    answered: (call, from, argsHash) => get().answered(call, from, argsHash),
  };
}

function withApi(otel: Api | null): Telemetry {
  if (!otel) return OFF;
  const api: Api = otel;
  const recording = recorderCheck(otel);
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
  const finish = (
    span: SpanLike,
    call: ObservedCall,
    probe: Probe,
    t0: number,
    outcome: CallOutcome,
    err?: unknown,
  ) => {
    const attrs: Attrs = {
      'idemgen.operation': call.operation,
      'idemgen.mechanism': call.mechanism,
      'idemgen.outcome': outcome,
    };
    const m = meter();
    m.calls.add(1, attrs);
    m.duration.record((performance.now() - t0) / 1000, attrs);
    if (!span.isRecording()) return span.end();
    span.setAttributes({ ...attrs, 'idemgen.attempts': probe.attempts });
    if (probe.argsHash !== undefined) span.setAttributes({ 'idemgen.args_hash': probe.argsHash });
    if (probe.recentSimilarAt !== undefined) {
      span.setAttributes({
        'idemgen.recent_similar': true,
        'idemgen.recent_similar.called_at': new Date(probe.recentSimilarAt).toISOString(),
      });
    }
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
  const start = (call: ObservedCall): SpanLike => {
    const attributes: Attrs = { 'idemgen.operation': call.operation, 'idemgen.mechanism': call.mechanism };
    if (call.toolName !== undefined) {
      attributes['gen_ai.operation.name'] = 'execute_tool';
      attributes['gen_ai.tool.name'] = call.toolName;
    }
    if (call.toolCallId !== undefined) attributes['gen_ai.tool.call.id'] = call.toolCallId;
    const name = call.toolName !== undefined ? `execute_tool ${call.toolName}` : `idempotent ${call.operation}`;
    return tracer.startSpan(name, { attributes, kind: SPAN_KIND_INTERNAL });
  };
  return {
    answered(call, from, argsHash) {
      if (!recording()) return;
      const t0 = performance.now();
      const span = start(call);
      if (span.isRecording()) span.setAttributes({ 'idemgen.answered_from': from });
      finish(span, call, { attempts: 0, argsHash }, t0, 'replay');
    },
    // Not async itself: with nothing recording, the caller gets the body's own promise (no extra hops).
    observe(call, body) {
      return recording() ? observeRecording(call(), body) : body({ attempts: 0 });
    },
  };
  async function observeRecording<R extends { wasReplay: boolean }>(
    call: ObservedCall,
    body: (probe: Probe) => Promise<R>,
  ): Promise<R> {
    const span = start(call);
    const probe: Probe = { attempts: 0 };
    const t0 = performance.now();
    try {
      // Spans the call itself opens (an HTTP client's) become children of this one.
      const result = span.isRecording()
        ? await api.context.with(api.trace.setSpan(api.context.active(), span), () => body(probe))
        : await body(probe);
      finish(span, call, probe, t0, result.wasReplay ? 'replay' : 'executed');
      return result;
    } catch (err) {
      finish(span, call, probe, t0, outcomeOf(err), err);
      throw err;
    }
  }
}
