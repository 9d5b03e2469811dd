/**
 * Records spans with the real OpenTelemetry SDK and writes them the way the collector's file exporter
 * does: one OTLP/JSON `{"resourceSpans":[…]}` object per line. Parent/child links need a context
 * manager; this one is AsyncLocalStorage, as @opentelemetry/context-async-hooks does it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { context, ROOT_CONTEXT, trace, type Context, type ContextManager } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

class AlsContextManager implements ContextManager {
  private readonly als = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.als.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.als.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.als.disable();
    return this;
  }
}

export function startRecording(): { exporter: InMemorySpanExporter; stop: () => void } {
  const exporter = new InMemorySpanExporter();
  context.setGlobalContextManager(new AlsContextManager());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  return {
    exporter,
    stop: () => {
      trace.disable();
      context.disable();
    },
  };
}

const nanos = ([s, ns]: [number, number]): string => (BigInt(s) * 1_000_000_000n + BigInt(ns)).toString();

function anyValue(v: unknown): Record<string, unknown> {
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  return { stringValue: String(v) };
}

/** OTLP/JSON (proto3 JSON mapping: hex ids, int64 as strings), `perLine` spans per export line. */
export function toOtlpJsonLines(spans: ReadableSpan[], perLine = 3): string {
  const lines: string[] = [];
  for (let i = 0; i < spans.length; i += perLine) {
    lines.push(
      JSON.stringify({
        resourceSpans: [
          {
            resource: { attributes: [{ key: 'service.name', value: { stringValue: 'idemgen-test-agent' } }] },
            scopeSpans: [
              {
                scope: { name: 'idemgen' },
                spans: spans.slice(i, i + perLine).map((s) => ({
                  traceId: s.spanContext().traceId,
                  spanId: s.spanContext().spanId,
                  parentSpanId: s.parentSpanContext?.spanId,
                  name: s.name,
                  kind: s.kind + 1,
                  startTimeUnixNano: nanos(s.startTime),
                  endTimeUnixNano: nanos(s.endTime),
                  attributes: Object.entries(s.attributes).map(([key, value]) => ({ key, value: anyValue(value) })),
                  status: { code: s.status.code },
                })),
              },
            ],
          },
        ],
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}
