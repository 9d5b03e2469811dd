/**
 * OpenTelemetry through the SDK's own in-memory exporter and a pull metric reader: one span per
 * idempotent call with the right outcome, GenAI attribute names for tool calls, counters and a
 * latency histogram per outcome. The SDK is a test-only dependency; the runtime uses the API alone.
 */
import { metrics, ProxyTracer, trace } from '@opentelemetry/api';
import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it, onTestFinished } from 'vitest';
import { createIdempotency, notExecuted, type Idempotency } from '../../../packages/runtime/src/index.js';
import { withIdempotency } from '../../../packages/runtime/src/mcp/index.js';
import { makeStore, type TestStore } from '../store/stores.js';

class PullReader extends MetricReader {
  protected async onShutdown(): Promise<void> {}
  protected async onForceFlush(): Promise<void> {}
}

const exporter = new InMemorySpanExporter();
const reader = new PullReader();
let t: TestStore;
let idem: Idempotency;

beforeAll(async () => {
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  t = await makeStore('sqlite', inject('pgUrl'), 'otel');
  idem = createIdempotency({ store: t.store, waitMs: 0 });
});
afterAll(async () => {
  trace.disable();
  metrics.disable();
  await t.cleanup();
});
beforeEach(() => exporter.reset());

const req = (key: string, args: unknown = { to: 'a@example.com' }) => ({
  operation: 'tool:send_email',
  key,
  args,
  mechanism: 'fail-closed' as const,
  toolCallId: 'call_1',
});
const ok = async () => ({ id: 'm_1' });
const spans = () => exporter.getFinishedSpans();

async function points(): Promise<{ name: string; outcome: unknown; value: unknown }[]> {
  const { resourceMetrics } = (await reader.collect()) as { resourceMetrics: ResourceMetrics };
  return resourceMetrics.scopeMetrics.flatMap((s) =>
    s.metrics.flatMap((m) =>
      m.dataPoints.map((p) => ({
        name: m.descriptor.name,
        outcome: p.attributes['idemgen.outcome'],
        value: p.value,
      })),
    ),
  );
}

describe('one span per idempotent call', () => {
  it('executed, then replay: GenAI names, outcome, attempts', async () => {
    await idem.run(req('otel-key-exec-0001'), ok);
    await idem.run(req('otel-key-exec-0001'), ok);
    const [first, second] = spans();
    expect(spans()).toHaveLength(2);
    expect(first?.name).toBe('execute_tool send_email');
    expect(first?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'send_email',
      'gen_ai.tool.call.id': 'call_1',
      'idemgen.operation': 'tool:send_email',
      'idemgen.mechanism': 'fail-closed',
      'idemgen.outcome': 'executed',
      'idemgen.attempts': 1,
    });
    expect(second?.attributes['idemgen.outcome']).toBe('replay');
    expect(second?.status.code).toBe(0);
  });

  it('conflict: same key, other arguments; the call does not run and the span is an error', async () => {
    await idem.run(req('otel-key-conf-0001'), ok);
    exporter.reset();
    let ran = false;
    await expect(
      idem.run(req('otel-key-conf-0001', { to: 'b@example.com' }), async () => {
        ran = true;
      }),
    ).rejects.toThrow();
    expect(ran).toBe(false);
    expect(spans().map((s) => s.attributes['idemgen.outcome'])).toEqual(['conflict']);
    expect(spans()[0]?.attributes['error.type']).toBe('IdempotencyConflictError');
    expect(spans()[0]?.status.code).toBe(2);
  });

  it('unknown: an ambiguous failure of a fail-closed call, and its retry', async () => {
    const boom = async () => {
      throw new Error('socket hang up');
    };
    await expect(idem.run(req('otel-key-unkn-0001'), boom)).rejects.toThrow(/may or may not/);
    await expect(idem.run(req('otel-key-unkn-0001'), ok)).rejects.toThrow(/outcome unknown/);
    expect(spans().map((s) => s.attributes['idemgen.outcome'])).toEqual(['unknown', 'unknown']);
  });

  it('in_flight: a duplicate while the first call runs; error: a definite failure', async () => {
    let release!: () => void;
    const held = idem.run(
      req('otel-key-infl-0001'),
      () =>
        new Promise<{ id: string }>((r) => {
          release = () => r({ id: 'x' });
        }),
    );
    await new Promise((r) => setTimeout(r, 20));
    await expect(idem.run(req('otel-key-infl-0001'), ok)).rejects.toThrow(/in flight/);
    release();
    await held;
    // The application vouches nothing ran (input validation): the row is released, the error rethrown.
    const notSent = async () => {
      throw notExecuted(new TypeError('amount must be positive'));
    };
    await expect(idem.run(req('otel-key-errr-0001'), notSent)).rejects.toThrow();
    expect(spans().map((s) => s.attributes['idemgen.outcome'])).toEqual(['in_flight', 'executed', 'error']);
  });

  it('counts every call by outcome and records its duration in seconds', async () => {
    const all = await points();
    const calls = (o: string) => all.find((p) => p.name === 'idemgen.calls' && p.outcome === o)?.value;
    expect(calls('executed')).toBe(3);
    expect(calls('replay')).toBe(1);
    expect(calls('conflict')).toBe(1);
    expect(calls('unknown')).toBe(2);
    expect(calls('in_flight')).toBe(1);
    const hist = all.find((p) => p.name === 'idemgen.call.duration' && p.outcome === 'executed')?.value as {
      count: number;
      sum: number;
    };
    expect(hist.count).toBe(3);
    expect(hist.sum).toBeGreaterThan(0);
    expect(hist.sum).toBeLessThan(10);
  });

  it('telemetry: false records nothing', async () => {
    const quiet = createIdempotency({ store: t.store, telemetry: false });
    await quiet.run(req('otel-key-quie-0001'), ok);
    expect(spans()).toHaveLength(0);
  });
});

describe('repeats answered without the store, and the soft guard', () => {
  it('a repeat the MCP window answers is a replay span marked answered_from = window', async () => {
    let effects = 0;
    const tool = withIdempotency(async () => ({ content: [{ type: 'text', text: `sent ${++effects}` }] }), {
      store: t.store,
      operation: 'tool:send_sms',
    });
    const args = { to: '+15550001', idempotency_key: 'otel-key-wind-0001' };
    await tool(args, {});
    await tool(args, {});
    expect(effects).toBe(1);
    const [first, second] = spans();
    expect(spans()).toHaveLength(2);
    expect(first?.attributes).toMatchObject({ 'idemgen.outcome': 'executed' });
    expect(first?.attributes['idemgen.answered_from']).toBeUndefined();
    expect(second?.name).toBe('execute_tool send_sms');
    expect(second?.attributes).toMatchObject({
      'idemgen.outcome': 'replay',
      'idemgen.answered_from': 'window',
      'idemgen.args_hash': first?.attributes['idemgen.args_hash'],
    });
  });

  it('a new intent the soft guard flags carries idemgen.recent_similar on its span', async () => {
    const guarded = createIdempotency({ store: t.store, recentSimilar: { windowSeconds: 60 } });
    await guarded.run(req('otel-key-simi-0001'), ok);
    await guarded.run(req('otel-key-simi-0002'), ok);
    const [first, second] = spans();
    expect(first?.attributes['idemgen.recent_similar']).toBeUndefined();
    expect(second?.attributes).toMatchObject({ 'idemgen.outcome': 'executed', 'idemgen.recent_similar': true });
    expect(Date.parse(String(second?.attributes['idemgen.recent_similar.called_at']))).not.toBeNaN();
  });
});

describe('no provider registered', () => {
  it('starts no span at all (the API is asked whether anything records, once per call)', async () => {
    trace.disable();
    metrics.disable();
    const started: string[] = [];
    // The runtime's tracer is the API's ProxyTracer (it follows a provider registered later): count its spans.
    const proto = ProxyTracer.prototype as unknown as { startSpan: (name: string, ...rest: unknown[]) => unknown };
    const original = proto.startSpan;
    proto.startSpan = function (this: unknown, name: string, ...rest: unknown[]) {
      started.push(name);
      return original.call(this, name, ...rest);
    };
    onTestFinished(() => {
      proto.startSpan = original;
    });
    const plain = createIdempotency({ store: t.store });
    await plain.run(req('otel-key-none-0001'), ok);
    expect(started).toEqual([]);
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    await plain.run(req('otel-key-none-0002'), ok);
    expect(spans().map((s) => s.attributes['idemgen.outcome'])).toEqual(['executed']); // a provider registered later counts
    expect(started).toEqual(['execute_tool send_email']);
  });
});
