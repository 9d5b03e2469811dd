/**
 * The conformance runner: each scenario of the vectors (schema.ts) against a fresh store from the
 * caller's factory, through `createIdempotency` and direct store calls. No test framework inside: the
 * result is a report a store author reads (which expectation of which step failed), usable from vitest,
 * node:test or a plain script.
 */
import { randomUUID } from 'node:crypto';
import { hashArgs } from '../core/canonical-json.js';
import { createIdempotency, type Idempotency, type RunResult } from '../core/idempotency.js';
import { notExecuted } from '../core/run-tag.js';
import { hasCapability, type DedupRow, type DedupStore } from '../store/types.js';
import type {
  CallExpect,
  CallStep,
  CreateRuntimeStep,
  HandlerSpec,
  Requirement,
  RuntimeSpec,
  Scenario,
  Step,
  StoreStep,
  VectorFile,
} from './schema.js';
import { conformanceVectors } from './vectors.js';

export interface ConformanceOptions {
  /** Named in the report (default `store`). */
  name?: string;
  /** Run only these groups (default: all). */
  groups?: string[];
  /** Run only scenarios whose `group/name` passes. */
  filter?: (id: string) => boolean;
  /** What the store declares beyond the contract (see `Requirement`). */
  capabilities?: { storeClock?: boolean };
  /** A scenario still running after this long fails (default 20 s): a store call that never settles. */
  scenarioTimeoutMs?: number;
  /** Called after each scenario (progress output). */
  onResult?: (result: ScenarioResult) => void;
  /** Throw a `ConformanceError` (its message is the report) when a scenario fails. */
  throwOnFailure?: boolean;
  /** The vectors to run (default: the bundled ones, `conformanceVectors()`). */
  vectors?: VectorFile[];
}

export interface ScenarioResult {
  group: string;
  name: string;
  status: 'passed' | 'failed' | 'not-applicable';
  /** Failed: every expectation that did not hold, each naming its step. Not applicable: what is missing. */
  messages: string[];
  ms: number;
}

export interface ConformanceReport {
  store: string;
  passed: number;
  failed: number;
  notApplicable: number;
  /** Scenarios run (passed + failed). */
  total: number;
  ok: boolean;
  groups: Record<string, { passed: number; total: number; notApplicable: number }>;
  results: ScenarioResult[];
}

export class ConformanceError extends Error {
  readonly report: ConformanceReport;
  constructor(report: ConformanceReport) {
    super(formatConformanceReport(report));
    this.name = 'ConformanceError';
    this.report = report;
  }
}

/** The runtime options a scenario starts from: short leases so expiry takes real milliseconds. */
const DEFAULT_RUNTIME: Required<Omit<RuntimeSpec, 'heartbeatMs' | 'clockSkewMs' | 'maxResultBytes'>> = {
  leaseMs: 2_000,
  waitMs: 3_000,
  pollMs: 10,
  defaultTtlSeconds: 60,
};
const DEFAULT_OPERATION = 'POST /conformance';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Handler errors carry names of their own so a vector can tell them from the runtime's errors. */
class HandlerError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

interface Outcome {
  ok: boolean;
  executed: boolean;
  value?: RunResult<unknown>;
  error?: unknown;
  /** JSON text of what the handler returned, when it ran and returned. */
  handlerText?: string;
}

interface Pending {
  label: string;
  expect: CallExpect | undefined;
  outcomes: Promise<Outcome[]>;
  /** Resolves when one of the step's handlers has started. */
  started: Promise<void>;
}

class ScenarioRun {
  readonly runId = randomUUID().replace(/-/g, '').slice(0, 12);
  readonly failures: string[] = [];
  readonly executions = new Map<string, number>();
  readonly tokens = new Map<string, string>();
  readonly background = new Map<string, Pending>();
  readonly runtimes = new Map<string, Idempotency>();
  private readonly hangs: (() => void)[] = [];
  private ended = false;

  constructor(
    readonly store: DedupStore,
    readonly scenario: Scenario,
  ) {}

  key(label: string, length?: number, raw?: boolean): string {
    if (raw) return label.replaceAll('{run}', this.runId);
    const base = `${label}-${this.runId}`;
    const want = length ?? Math.max(16, base.length);
    return base.length >= want ? base.slice(0, want) : base + 'k'.repeat(want - base.length);
  }

  spec(name: string | undefined): RuntimeSpec {
    const named = name === undefined ? {} : this.scenario.runtimes?.[name];
    if (named === undefined) throw new Error(`unknown runtime "${name}" (not in the scenario's runtimes)`);
    return { ...DEFAULT_RUNTIME, ...this.scenario.runtime, ...named };
  }

  runtime(name: string | undefined): Idempotency {
    const id = name ?? '';
    let rt = this.runtimes.get(id);
    if (!rt) {
      rt = build(this.store, this.spec(name));
      this.runtimes.set(id, rt);
    }
    return rt;
  }

  count(label: string): void {
    this.executions.set(label, (this.executions.get(label) ?? 0) + 1);
  }

  /** A `hang` handler waits here until the scenario ends. */
  hang(): Promise<void> {
    if (this.ended) return Promise.resolve();
    return new Promise((resolve) => this.hangs.push(resolve));
  }

  end(): void {
    this.ended = true;
    for (const release of this.hangs.splice(0)) release();
  }
}

function build(store: DedupStore, spec: RuntimeSpec): Idempotency {
  const { clockSkewMs, ...options } = spec;
  return createIdempotency({
    store,
    telemetry: false,
    ...options,
    ...(clockSkewMs ? { now: () => Date.now() + clockSkewMs } : {}),
  });
}

/** JSON text, and bytes as their kind plus base64 (JSON would show a Uint8Array as an object of indexes). */
function text(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    const view = value instanceof ArrayBuffer ? new Uint8Array(value) : value;
    const bytes = Buffer.from(view.buffer, view.byteOffset, view.byteLength);
    return `${value.constructor.name}(${bytes.toString('base64')})`;
  }
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return String(value);
  }
}

function errorNames(err: unknown): string[] {
  if (typeof err !== 'object' || err === null) return [String(err)];
  const e = err as { name?: unknown; code?: unknown; constructor?: { name?: unknown } };
  return [e.name, e.code, e.constructor?.name].filter((v): v is string => typeof v === 'string');
}

function describeError(err: unknown): string {
  const [name] = errorNames(err);
  const message = err instanceof Error ? err.message : String(err);
  return `${name ?? 'error'}: ${message}`;
}

/** What an `ok` handler returns. */
function generated(handler: HandlerSpec): unknown {
  if (handler.resultChars !== undefined) return 'r'.repeat(handler.resultChars);
  if (handler.resultBytes !== undefined) {
    const bytes = Uint8Array.from({ length: handler.resultBytes }, (_, i) => (i * 7) % 256);
    return handler.resultBytesAs === 'arraybuffer' ? bytes.buffer : bytes;
  }
  if (handler.resultItems !== undefined) {
    return Array.from({ length: handler.resultItems }, (_, i) => ({ i, v: 'x'.repeat(i % 7) }));
  }
  return 'result' in handler ? handler.result : { ok: true };
}

async function invoke(
  run: ScenarioRun,
  step: CallStep,
  index: number,
  label: string,
  onStart: () => void,
): Promise<Outcome> {
  const handler: HandlerSpec = step.handler ?? {};
  const key = run.key(step.keyPerCall ? `${step.key}-${index}` : step.key, step.keyLength, step.rawKey);
  const scope = step.scope;
  let handlerText: string | undefined;
  let executed = false;
  if (step.staggerMs) await sleep(step.staggerMs * index);
  try {
    const value = await run.runtime(step.runtime).run(
      {
        operation: step.operation ?? DEFAULT_OPERATION,
        key,
        scope,
        args: step.args ?? {},
        mechanism: step.mechanism ?? 'fail-closed',
        ttlSeconds: step.ttlSeconds,
      },
      async (ctx) => {
        executed = true;
        onStart();
        run.count(step.keyPerCall ? `${step.key}-${index}` : step.key);
        if (step.id !== undefined && index === 0) run.tokens.set(step.id, ctx.leaseToken);
        if (handler.delayMs) await sleep(handler.delayMs);
        switch (handler.outcome ?? 'ok') {
          case 'definite':
            throw notExecuted(new HandlerError('HandlerNotExecutedError', `${label}: failed before any effect`));
          case 'final':
            throw Object.assign(new HandlerError('HandlerFinalError', `${label}: definite failure`), {
              finalFailure: true,
            });
          case 'ambiguous':
            throw new HandlerError('HandlerAmbiguousError', `${label}: outcome unknown`);
          case 'hang':
            await run.hang();
            throw new HandlerError('HandlerAmbiguousError', `${label}: still hanging when the scenario ended`);
          case 'unencodable':
            return { big: BigInt(1) };
          default: {
            const result = generated(handler);
            handlerText = text(result);
            return result;
          }
        }
      },
    );
    return { ok: true, executed, value, handlerText };
  } catch (error) {
    return { ok: false, executed, error, handlerText };
  }
}

function startCall(run: ScenarioRun, step: CallStep, where: string): Pending {
  const n = step.parallel ?? 1;
  const label = `${where} (call${step.id ? ` "${step.id}"` : ''} key "${step.key}"${n > 1 ? ` ×${n}` : ''})`;
  let onStart = (): void => undefined;
  const started = new Promise<void>((resolve) => {
    onStart = resolve;
  });
  const outcomes = Promise.all(Array.from({ length: n }, (_, i) => invoke(run, step, i, label, onStart)));
  return { label, expect: step.expect, outcomes, started };
}

function checkCall(run: ScenarioRun, pending: Pending, outcomes: Outcome[]): void {
  const x = pending.expect;
  if (!x) return;
  const fail = (what: string) => run.failures.push(`${pending.label}: ${what}`);
  const errors = outcomes.filter((o) => !o.ok);
  const firstError = errors[0] ? ` (first error: ${describeError(errors[0].error)})` : '';
  if (x.executed !== undefined) {
    const got = outcomes.filter((o) => o.executed).length;
    if (got !== x.executed) fail(`expected the handler to run ${x.executed} time(s), it ran ${got}${firstError}`);
  }
  if (x.replays !== undefined) {
    const got = outcomes.filter((o) => o.ok && o.value?.wasReplay).length;
    if (got !== x.replays) fail(`expected ${x.replays} replay(s), got ${got}${firstError}`);
  }
  if (x.error !== undefined) {
    const bad = outcomes.filter((o) => o.ok || !errorNames(o.error).includes(x.error!));
    if (bad.length > 0) {
      const o = bad[0];
      const got = o.ok
        ? `a result (${o.value?.wasReplay ? 'replay' : 'executed'}: ${text(o.value?.result)})`
        : describeError(o.error);
      fail(`expected ${x.error}, got ${got}${bad.length > 1 ? ` (${bad.length} of ${outcomes.length} calls)` : ''}`);
    }
  }
  if (x.errors !== undefined) {
    for (const [name, want] of Object.entries(x.errors)) {
      const got = errors.filter((o) => errorNames(o.error).includes(name)).length;
      if (got !== want) fail(`expected ${want} × ${name}, got ${got}${firstError}`);
    }
  }
  if (x.error === undefined && x.errors === undefined && errors.length > 0) {
    fail(`expected no error, got ${errors.length} (first: ${describeError(errors[0].error)})`);
  }
  for (const o of outcomes.filter((o) => o.ok)) {
    const got = text(o.value?.result);
    if (x.result !== undefined && got !== text(x.result)) {
      fail(`expected result ${text(x.result)}, got ${got}`);
      break;
    }
    const handlerText = o.handlerText ?? outcomes.find((p) => p.handlerText !== undefined)?.handlerText;
    if (x.sameResultAsHandler && got !== handlerText) {
      fail(`expected the handler's result byte for byte (${handlerText}), got ${got}`);
      break;
    }
    if (x.replayable !== undefined) {
      const flag = (o.value as { replayable?: unknown } | undefined)?.replayable;
      const got = flag === undefined ? true : flag;
      if (got !== x.replayable) {
        fail(`expected replayable: ${x.replayable} on the result, got ${flag === undefined ? 'no flag' : text(flag)}`);
        break;
      }
    }
  }
  for (const o of errors) {
    const lacks = (x.errorHas ?? []).filter((p) => (o.error as Record<string, unknown> | null)?.[p] === undefined);
    if (lacks.length > 0) {
      fail(`expected the error to carry ${lacks.map((p) => `"${p}"`).join(', ')}; ${describeError(o.error)} does not`);
      break;
    }
  }
}

async function awaitCalls(run: ScenarioRun, ids: string[], where: string): Promise<void> {
  for (const id of ids) {
    const pending = run.background.get(id);
    if (!pending) {
      run.failures.push(`${where}: no background call "${id}" to await`);
      continue;
    }
    run.background.delete(id);
    checkCall(run, pending, await pending.outcomes);
  }
}

async function storeStep(run: ScenarioRun, step: StoreStep, where: string): Promise<void> {
  const s = run.store;
  const x = step.expect ?? {};
  const label = `${where} (store.${step.op}${step.key ? ` key "${step.key}"` : ''})`;
  const fail = (what: string): void => {
    run.failures.push(`${label}: ${what}`);
  };
  const id = { scope: step.scope ?? '', key: run.key(step.key ?? '') };
  const token = step.tokenOf === undefined ? randomUUID() : run.tokens.get(step.tokenOf);
  if (token === undefined) {
    fail(`call "${step.tokenOf}" never ran its handler, so it has no token`);
    return;
  }
  const now = Date.now();
  const fenced = { ...id, leaseToken: token, now };
  const returns = (got: boolean, what: string) => {
    if (x.returns !== undefined && got !== x.returns) fail(`expected ${x.returns} (${what}), got ${got}`);
  };
  switch (step.op) {
    case 'get': {
      const row = await s.get(id);
      checkRow(row, x, fail);
      return;
    }
    case 'complete':
      return returns(await s.complete({ ...fenced, result: step.resultText ?? '{"late":true}' }), 'complete is fenced');
    case 'fail':
      return returns(await s.fail({ ...fenced, error: '{"outcome":"failed"}' }), 'fail is fenced');
    case 'markUnknown':
      return returns(await s.markUnknown({ ...fenced, error: '{"outcome":"unknown"}' }), 'markUnknown is fenced');
    case 'release':
      return returns(await s.release(fenced), 'release is fenced');
    case 'renewLease':
      return returns(await s.renewLease({ ...fenced, leaseMs: 60_000 }), 'renewLease is fenced');
    case 'takeOver': {
      const taken = await s.takeOver({ ...id, expectedToken: token, newToken: randomUUID(), now, leaseMs: 60_000 });
      return returns(taken !== undefined, 'takeOver needs an expired lease and the expected token');
    }
    case 'writeCompleted': {
      const claimed = await s.claim({
        ...id,
        operation: step.operation ?? DEFAULT_OPERATION,
        argsHash: hashArgs(step.args ?? {}),
        mechanism: 'fail-closed',
        leaseToken: token,
        now,
        leaseMs: 60_000,
        ttlMs: 3_600_000,
        argsSummary: null,
      });
      if (!claimed.claimed) return fail('the key was already taken');
      if (!(await s.complete({ ...fenced, result: step.resultText ?? null })))
        fail('complete of the own claim refused');
      return;
    }
  }
  if (step.op === 'prune') {
    if (!hasCapability(s, 'prune')) return fail('the store has no prune()');
    await s.prune(now); // its count is not compared: a store with native expiry may have dropped the rows already
    return;
  }
  if (!hasCapability(s, 'reconcile')) return fail('the store has no listStale()/resolve()');
  if (step.op === 'listStale') {
    const keys = new Set((await s.listStale(now)).map((r) => `${r.scope}\u0000${r.key}`));
    const has = (label: string) => keys.has(`${step.scope ?? ''}\u0000${run.key(label)}`);
    for (const l of x.listed ?? []) if (!has(l)) fail(`expected "${l}" among the stale rows; it is not`);
    for (const l of x.notListed ?? [])
      if (has(l)) fail(`expected "${l}" not to be listed as stale (its lease is live)`);
    return;
  }
  const resolved = await s.resolve({
    ...id,
    as: step.as ?? 'completed',
    result: step.resultText ?? null,
    error: '{"outcome":"resolved"}',
    resolution: '{"by":"conformance"}',
    now,
  });
  returns(resolved !== undefined, 'resolve settles only a pending row whose lease has expired');
}

function checkRow(row: DedupRow | undefined, x: StoreStep['expect'] & object, fail: (what: string) => void): void {
  if (x.absent) {
    if (row) fail(`expected no row, found one (status ${row.status})`);
    return;
  }
  if (!row) {
    if (x.row || x.windowFromCompletionMs !== undefined) fail('expected a row, found none');
    return;
  }
  const want = x.row ?? {};
  if (want.status !== undefined && row.status !== want.status)
    fail(`expected status ${want.status}, got ${row.status}`);
  if (want.result !== undefined && row.result !== want.result) {
    fail(`expected stored result ${text(want.result)}, got ${text(row.result)}`);
  }
  if (want.attempts !== undefined && row.attempts !== want.attempts) {
    fail(`expected attempts ${want.attempts}, got ${row.attempts}`);
  }
  if (want.hasError !== undefined && (row.error !== null) !== want.hasError) {
    fail(`expected ${want.hasError ? 'an' : 'no'} error recorded, got ${text(row.error)}`);
  }
  if (x.windowFromCompletionMs !== undefined) {
    const window = row.completedAt === null ? Number.NaN : row.expiresAt - row.completedAt;
    if (row.completedAt === null) fail('expected a completed row, completedAt is null');
    else if (window < x.windowFromCompletionMs) {
      fail(
        `expected the dedup window to run ${x.windowFromCompletionMs} ms from completion, ` +
          `it ends ${window} ms after it (expiresAt counts from the claim?)`,
      );
    }
  }
}

function createRuntimeStep(run: ScenarioRun, step: CreateRuntimeStep, where: string): void {
  let error: unknown;
  try {
    build(run.store, { ...DEFAULT_RUNTIME, ...step.options });
  } catch (err) {
    error = err;
  }
  if (step.throws && error === undefined) {
    run.failures.push(
      `${where} (createIdempotency ${text(step.options)}): expected it to refuse these options; it accepted them`,
    );
  }
  if (!step.throws && error !== undefined) {
    run.failures.push(
      `${where} (createIdempotency ${text(step.options)}): expected it to accept, got ${describeError(error)}`,
    );
  }
}

async function runStep(run: ScenarioRun, step: Step, where: string): Promise<void> {
  if ('sleep' in step) return sleep(step.sleep);
  if ('await' in step) return awaitCalls(run, typeof step.await === 'string' ? [step.await] : step.await, where);
  if ('store' in step) return storeStep(run, step.store, where);
  if ('createRuntime' in step) return createRuntimeStep(run, step.createRuntime, where);
  const pending = startCall(run, step.call, where);
  if (step.call.background) {
    run.background.set(step.call.id ?? `#${run.background.size}`, pending);
    // Go on once the call is under way (its handler runs, so it holds the claim) or over: a loaded
    // database may take longer to claim than the vector's next sleep.
    await Promise.race([pending.started, pending.outcomes]);
    return;
  }
  checkCall(run, pending, await pending.outcomes);
}

async function runScenario(run: ScenarioRun): Promise<void> {
  const { steps } = run.scenario;
  try {
    for (let i = 0; i < steps.length; i++) await runStep(run, steps[i], `step ${i + 1}`);
  } finally {
    run.end(); // hanging handlers give up now, so the calls still in the background can settle
  }
  await awaitCalls(run, [...run.background.keys()], 'end');
  for (const [label, want] of Object.entries(run.scenario.executions ?? {})) {
    const got = run.executions.get(label) ?? 0;
    if (got !== want) run.failures.push(`key "${label}": expected ${want} execution(s) in all, got ${got}`);
  }
}

function missing(store: DedupStore, requires: Requirement[] | undefined, options: ConformanceOptions): string[] {
  return (requires ?? []).flatMap((r) => {
    if (r === 'storeClock') return options.capabilities?.storeClock ? [] : ['a store clock (capabilities.storeClock)'];
    return hasCapability(store, r) ? [] : [`the ${r} capability`];
  });
}

async function oneScenario(
  group: string,
  scenario: Scenario,
  createStore: (info: { group: string; scenario: string }) => DedupStore | Promise<DedupStore>,
  options: ConformanceOptions,
): Promise<ScenarioResult> {
  const started = Date.now();
  const result = (status: ScenarioResult['status'], messages: string[]): ScenarioResult => ({
    group,
    name: scenario.name,
    status,
    messages,
    ms: Date.now() - started,
  });
  let store: DedupStore;
  try {
    store = await createStore({ group, scenario: scenario.name });
  } catch (err) {
    return result('failed', [`createStore threw: ${describeError(err)}`]);
  }
  const run = new ScenarioRun(store, scenario);
  try {
    const gaps = missing(store, scenario.requires, options);
    if (gaps.length > 0) return result('not-applicable', [`needs ${gaps.join(' and ')}`]);
    const limit = options.scenarioTimeoutMs ?? 20_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        run.failures.push(`did not finish within ${limit} ms (a store call that never settles?)`);
        resolve();
      }, limit);
    });
    try {
      await Promise.race([runScenario(run), timeout]);
    } catch (err) {
      run.failures.push(`threw: ${describeError(err)}`);
    } finally {
      clearTimeout(timer);
      run.end();
    }
    return result(run.failures.length === 0 ? 'passed' : 'failed', run.failures);
  } finally {
    await Promise.resolve(store.close()).catch(() => undefined);
  }
}

/**
 * Runs the conformance vectors against a store: `createStore` is called once per scenario and must
 * return a store on an empty table, or on one the runner may share (its keys are unique per run).
 * The store is closed after its scenario.
 */
export async function runStoreConformance(
  createStore: (info: { group: string; scenario: string }) => DedupStore | Promise<DedupStore>,
  options: ConformanceOptions = {},
): Promise<ConformanceReport> {
  const files = options.vectors ?? conformanceVectors();
  const results: ScenarioResult[] = [];
  for (const file of files) {
    if (options.groups && !options.groups.includes(file.group)) continue;
    for (const scenario of file.scenarios) {
      if (options.filter && !options.filter(`${file.group}/${scenario.name}`)) continue;
      const r = await oneScenario(file.group, scenario, createStore, options);
      results.push(r);
      options.onResult?.(r);
    }
  }
  const report = summarize(options.name ?? 'store', results);
  if (options.throwOnFailure && !report.ok) throw new ConformanceError(report);
  return report;
}

function summarize(store: string, results: ScenarioResult[]): ConformanceReport {
  const groups: ConformanceReport['groups'] = {};
  for (const r of results) {
    const g = groups[r.group] ?? { passed: 0, total: 0, notApplicable: 0 };
    groups[r.group] = g;
    if (r.status === 'not-applicable') g.notApplicable++;
    else g.total++;
    if (r.status === 'passed') g.passed++;
  }
  const passed = results.filter((r) => r.status === 'passed').length;
  const failed = results.filter((r) => r.status === 'failed').length;
  const notApplicable = results.length - passed - failed;
  return { store, passed, failed, notApplicable, total: passed + failed, ok: failed === 0, groups, results };
}

/** The report as text: a line per group, then each failed scenario with its messages. */
export function formatConformanceReport(report: ConformanceReport): string {
  const na = report.notApplicable ? `, ${report.notApplicable} not applicable` : '';
  const lines = [`${report.store}: ${report.passed}/${report.total} scenarios passed${na}`];
  for (const [group, g] of Object.entries(report.groups)) {
    lines.push(`  ${group}: ${g.passed}/${g.total}${g.notApplicable ? ` (${g.notApplicable} n/a)` : ''}`);
  }
  for (const r of report.results.filter((r) => r.status === 'failed')) {
    lines.push(`  ✗ ${r.group}/${r.name}`);
    for (const m of r.messages) lines.push(`      ${m}`);
  }
  return lines.join('\n');
}
