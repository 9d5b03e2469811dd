/**
 * The code-mode sandbox: a script runs inside QuickJS compiled to WebAssembly (quickjs-emscripten), a
 * fresh runtime per run, inside a worker thread of its own (worker.ts; the host side is pool.ts and
 * run.ts, which stop the thread from outside when a budget runs out). Nothing of Node is reachable from
 * inside — no `process`, `require`, module loader, `fetch` or file system exist there — and the one door
 * out is the host function behind `api.<tool>(args)`, which takes a tool name and JSON text and answers
 * with JSON text. Limits: code size, CPU time spent inside the interpreter (interrupt handler), wall time,
 * memory, stack, host calls, calls in flight, argument and output bytes. Every string the script hands
 * out is measured inside the engine before it is copied. Every failure comes back as a `SandboxResult`
 * with a stable code, never as an exception.
 */
import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSSyncVariant,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core';

export interface SandboxLimits {
  /** UTF-8 bytes of the script. */
  codeBytes: number;
  /** Milliseconds the interpreter may run (time spent waiting for tool calls does not count). */
  cpuMs: number;
  /** Milliseconds for the whole run, tool calls included. */
  wallMs: number;
  memoryBytes: number;
  stackBytes: number;
  /** Bytes of the result's JSON plus the console output. */
  outputBytes: number;
  /** `api` calls per run. */
  calls: number;
  /** `api` calls of one run started and not yet answered. */
  callsInFlight: number;
  /** UTF-8 bytes of one call's arguments as JSON. */
  argumentBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  codeBytes: 64 * 1024,
  cpuMs: 2_000,
  wallMs: 120_000,
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 128 * 1024,
  outputBytes: 256 * 1024,
  calls: 100,
  callsInFlight: 16,
  argumentBytes: 64 * 1024,
};

/** What the host answers to one `api` call: the value the script receives, or the error it sees thrown. */
export type HostAnswer = { ok: true; value: unknown } | { ok: false; error: Record<string, unknown> };
/** `argsText`: the script's arguments as JSON text, at most `argumentBytes` long. */
export type HostCall = (tool: string, argsText: string) => Promise<HostAnswer>;

/** The engine running (`run`) or waiting for host calls (`wait`): the watchdog outside counts `run` as CPU time. */
export type SandboxPhase = 'run' | 'wait';

type SandboxFailureCode =
  | 'code_too_large'
  | 'code_syntax_error'
  | 'code_threw'
  | 'code_timeout'
  | 'code_out_of_memory'
  | 'code_stack_overflow'
  | 'code_result_not_json'
  | 'code_output_too_large'
  | 'code_never_settles'
  | 'code_aborted'
  | 'cancelled';

export type SandboxResult =
  | { ok: true; value: unknown; logs: string[] }
  | { ok: false; code: SandboxFailureCode; message: string; logs: string[] };

let packages:
  | Promise<{ load: (variant: QuickJSSyncVariant) => Promise<QuickJSWASMModule>; variant: QuickJSSyncVariant }>
  | undefined;

/**
 * A fresh wasm instance (its own linear memory) per run, ~30–130 ms: a script that traps the instance
 * (a native stack overflow in deep C recursion, an engine assertion) takes nothing with it, and the memory
 * a run grew is freed with it. `serve --code` calls this at start, so a missing package is a start-up
 * message, not a failed call.
 */
export async function quickjs(wasmModule?: WebAssembly.Module): Promise<QuickJSWASMModule> {
  packages ??= (async () => {
    const [{ newQuickJSWASMModuleFromVariant, newVariant }, variant] = await Promise.all([
      import('quickjs-emscripten-core'),
      import('@jitl/quickjs-wasmfile-release-sync'),
    ]);
    // Typed as CommonJS (the default is the module object), loaded as ESM (the default is the variant).
    const loaded = variant.default as unknown as QuickJSSyncVariant & { default?: QuickJSSyncVariant };
    const base = loaded.default ?? loaded;
    // A module compiled once by the host (pool.ts) spares each worker the wasm compile.
    return {
      load: newQuickJSWASMModuleFromVariant,
      variant: wasmModule === undefined ? base : newVariant(base, { wasmModule }),
    };
  })();
  const { load, variant } = await packages;
  return load(variant);
}

/**
 * Runs inside the sandbox before the script: builds a frozen, prototype-less `api` and a `console` from
 * the host functions, keeping its own references to JSON and Error so a script that replaces globals only
 * breaks itself. Returns the helpers the host uses to read the result and errors.
 */
const BOOTSTRAP = `(function (host, log, namesText, lineMax, argMax) {
  var parse = JSON.parse, stringify = JSON.stringify, ErrorC = Error, TypeErrorC = TypeError;
  var apply = Reflect.apply, slice = String.prototype.slice, join = Array.prototype.join, map = Array.prototype.map;
  function cut(s, n) { return s.length > n ? apply(slice, s, [0, n]) : s; }
  var names = parse(namesText), has = Object.prototype.hasOwnProperty;
  var tools = Object.create(null);
  names.forEach(function (name) {
    tools[name] = function (args) {
      var text, left = argMax, big = false;
      // Counted while the text is built, so an oversized argument is refused before it exists.
      var measure = function (k, x) {
        left -= k.length + 4;
        if (typeof x === 'string') left -= x.length;
        if (left < 0) { big = true; throw big; }
        return x;
      };
      try { text = stringify(args === undefined ? {} : args, measure); } catch (e) { text = undefined; }
      if (big) {
        var m = 'api.' + name + ': the arguments are more than ' + argMax + ' bytes as JSON; this call was not made. Send less per call.';
        var e = new ErrorC(m);
        e.name = 'ToolError';
        e.code = 'arguments_too_large';
        e.details = { code: 'arguments_too_large', message: m, executed: 'no' };
        return Promise.reject(e);
      }
      if (typeof text !== 'string')
        return Promise.reject(new TypeErrorC('api.' + name + ': arguments must be a JSON object'));
      return host(name, text).then(function (answer) {
        var o = parse(answer);
        if (o.ok) return o.value;
        var e = new ErrorC(String(o.error.message));
        e.name = 'ToolError';
        e.code = o.error.code;
        e.details = o.error;
        throw e;
      });
    };
  });
  Object.freeze(tools);
  var api = new Proxy(tools, {
    get: function (t, k) {
      if (typeof k !== 'string' || k === 'then') return undefined;
      if (has.call(t, k)) return t[k];
      throw new TypeErrorC('api has no tool named ' + stringify(k) + '; find tool names with the search tool');
    },
  });
  Object.defineProperty(globalThis, 'api', { value: api, writable: false, configurable: false, enumerable: false });
  function show(v) {
    if (typeof v === 'string') return v;
    try { var s = stringify(v); return typeof s === 'string' ? s : String(v); } catch (e) { return '[unprintable]'; }
  }
  var say = function () { log(cut(apply(join, apply(map, arguments, [show]), [' ']), lineMax)); };
  Object.defineProperty(globalThis, 'console', { value: Object.freeze({ log: say, info: say, warn: say, error: say }), writable: false, configurable: false });
  function result(v) {
    if (v === undefined) return 'null';
    var s = stringify(v, function (k, x) {
      var t = typeof x;
      if (t === 'function' || t === 'symbol') throw new TypeErrorC('the result holds a ' + t + (k === '' ? '' : ' at ' + stringify(k)));
      return x;
    });
    if (typeof s !== 'string') throw new TypeErrorC('the result has no JSON form');
    return s;
  }
  function describe(e) {
    try {
      if (e instanceof ErrorC) return stringify({ name: cut(String(e.name), 200), message: cut(String(e.message), 2000), code: typeof e.code === 'string' ? cut(e.code, 200) : undefined });
      return stringify({ name: 'thrown value', message: cut(show(e), 2000) });
    } catch (x) { return stringify({ name: 'thrown value', message: 'a value that cannot be shown' }); }
  }
  return [result, describe];
})`;

const utf8Bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

/** With a CPU clock, a run is also stopped once it has been running this many times its CPU budget. */
export const RUNNING_WALL_FACTOR = 10;

export interface SandboxOptions {
  /** The caller stopped waiting (MCP cancel): the script is stopped at its next interrupt check or await. */
  signal?: AbortSignal;
  /** A loaded module (worker.ts loads it before its run arrives); else one is loaded now. */
  module?: QuickJSWASMModule;
  /** Told when the engine starts running or starts waiting for host calls. */
  onPhase?: (phase: SandboxPhase) => void;
  /**
   * The thread's CPU time in ms (thread-cpu.ts). Without it, time spent running counts as CPU time; with
   * it, a run whose running time passes the budget is stopped only once its CPU time has too.
   */
  cpuClock?: () => number;
}

/** Runs `code` as the body of an async function; `api.<name>` calls `host`. Never throws for the script's faults. */
export async function runInSandbox(
  code: string,
  names: readonly string[],
  host: HostCall,
  limits: SandboxLimits = DEFAULT_LIMITS,
  options: SandboxOptions = {},
): Promise<SandboxResult> {
  const logs: string[] = [];
  if (utf8Bytes(code) > limits.codeBytes)
    return {
      ok: false,
      code: 'code_too_large',
      message: `The code is ${utf8Bytes(code)} bytes; at most ${limits.codeBytes} are accepted.`,
      logs,
    };
  const module = options.module ?? (await quickjs());
  try {
    return await runInModule(module, code, names, host, limits, options, logs);
  } catch (err) {
    // The instance trapped (the host's stack ran out inside the engine's C code, or an engine assertion):
    // it is dropped with this run; the process and the next run are unaffected.
    const overflow = err instanceof RangeError || /stack/i.test(String(err));
    return {
      ok: false,
      code: overflow ? 'code_stack_overflow' : 'code_aborted',
      message: overflow
        ? 'The script nested too deeply (the engine ran out of stack) and was stopped.'
        : `The sandbox stopped on an internal fault (${err instanceof Error ? err.message : String(err)}); nothing more of this script ran.`,
      logs,
    };
  }
}

/** What one run's pieces share: why it was stopped, its start, its output and calls so far, its calls in flight. */
interface RunState {
  stopped: 'cpu' | 'wall' | 'cancelled' | undefined;
  started: number;
  logBytes: number;
  calls: number;
  logCut: boolean;
  pending: Set<QuickJSDeferredPromise>;
  inflight: Set<Promise<void>>;
  alive: boolean;
}

type Segment = <T>(fn: () => T) => T;
type CopyOut = (h: QuickJSHandle, maxBytes: number) => string | undefined;

const failWith =
  (logs: string[]) =>
  (code: SandboxFailureCode, message: string): SandboxResult => ({ ok: false, code, message, logs });

async function runInModule(
  module: QuickJSWASMModule,
  code: string,
  names: readonly string[],
  host: HostCall,
  limits: SandboxLimits,
  options: SandboxOptions,
  logs: string[],
): Promise<SandboxResult> {
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  const st: RunState = {
    stopped: undefined,
    started: Date.now(),
    logBytes: 0,
    calls: 0,
    logCut: false,
    pending: new Set(),
    inflight: new Set(),
    alive: true,
  };
  const segment = watchBudget(runtime, limits, options, st);
  const ctx = runtime.newContext();
  let trapped = false;
  const handles: QuickJSHandle[] = [];
  const keep = (h: QuickJSHandle): QuickJSHandle => {
    handles.push(h);
    return h;
  };
  const fail = failWith(logs);
  const copyOut = stringReader(ctx);

  try {
    const hostFn = keep(hostFunction(ctx, st, limits, host, options.signal, copyOut));
    const logFn = keep(logFunction(ctx, st, limits, logs, copyOut));
    const namesH = keep(ctx.newString(JSON.stringify(names)));
    const lineMaxH = keep(ctx.newNumber(Math.floor(limits.outputBytes / 4)));
    const argMaxH = keep(ctx.newNumber(limits.argumentBytes));
    const boot = segment(() => ctx.evalCode(BOOTSTRAP, 'idemgen-bootstrap.js'));
    const bootFn = keep(ctx.unwrapResult(boot));
    const helpers = keep(
      ctx.unwrapResult(
        segment(() => ctx.callFunction(bootFn, ctx.undefined, hostFn, logFn, namesH, lineMaxH, argMaxH)),
      ),
    );
    const resultFn = keep(ctx.getProp(helpers, 0));
    const describeFn = keep(ctx.getProp(helpers, 1));
    const { describe, limitHit } = scriptFaults(ctx, describeFn, segment, copyOut, st, limits, logs);

    const compiled = segment(() => ctx.evalCode(`(async function () {\n${code}\n})`, 'script.js'));
    if (compiled.error) {
      const message = describe(compiled.error);
      compiled.error.dispose();
      return limitHit(message) ?? fail('code_syntax_error', `The code does not compile: ${message}`);
    }
    const fn = keep(compiled.value);
    const started_ = segment(() => ctx.callFunction(fn, ctx.undefined));
    if (started_.error) {
      const message = describe(started_.error);
      started_.error.dispose();
      return limitHit(message) ?? fail('code_threw', message);
    }
    const promise = keep(started_.value);
    return await settleScript(
      { runtime, ctx, promise, resultFn, st, limits, options, segment, copyOut, logs },
      describe,
      limitHit,
    );
  } catch (err) {
    trapped = true;
    throw err;
  } finally {
    st.alive = false;
    // An interrupted or trapped instance may still hold objects the engine would assert on while freeing
    // them; it is dropped whole instead (it belongs to this run alone).
    if (st.stopped === undefined && !trapped) {
      for (const d of st.pending) disposeQuietly(d);
      for (const h of handles.reverse()) if (h.alive) disposeQuietly(h);
      disposeQuietly(ctx);
      disposeQuietly(runtime);
    }
  }
}

/**
 * The budgets: an interrupt handler that stops the interpreter when the run is cancelled, past its CPU budget
 * in running time (segments), or past its wall-clock limit. Returns the wrapper that times one running segment.
 */
function watchBudget(
  runtime: QuickJSRuntime,
  limits: SandboxLimits,
  { signal, cpuClock }: SandboxOptions,
  st: RunState,
): Segment {
  let spent = 0;
  let segmentStart = -1;
  const cpuAtStart = cpuClock?.() ?? 0;
  let nextCpuCheck = 0;
  /**
   * Past the budget in running time: past it in CPU time too (read at most every 20 ms), or running for
   * RUNNING_WALL_FACTOR times the budget (a thread starved of CPU on a busy machine is stopped as well)?
   */
  const overBudget = (now: number, running: number): boolean => {
    if (cpuClock === undefined || running > limits.cpuMs * RUNNING_WALL_FACTOR) return true;
    if (now < nextCpuCheck) return false;
    nextCpuCheck = now + 20;
    return cpuClock() - cpuAtStart > limits.cpuMs;
  };
  runtime.setInterruptHandler(() => {
    if (st.stopped) return true;
    const now = Date.now();
    if (signal?.aborted) st.stopped = 'cancelled';
    else if (
      segmentStart >= 0 &&
      spent + (now - segmentStart) > limits.cpuMs &&
      overBudget(now, spent + now - segmentStart)
    )
      st.stopped = 'cpu';
    else if (now - st.started > limits.wallMs) st.stopped = 'wall';
    return st.stopped !== undefined;
  });
  return <T>(fn: () => T): T => {
    segmentStart = Date.now();
    try {
      return fn();
    } finally {
      spent += Date.now() - segmentStart;
      segmentStart = -1;
    }
  };
}

/** Copies a string out of the engine, or undefined when it is longer than `maxBytes` as UTF-8 (measured before the copy). */
function stringReader(ctx: QuickJSContext): CopyOut {
  /** A string's length in UTF-16 units, read inside the engine (nothing is copied out); -1 for a non-string. */
  const lengthOf = (h: QuickJSHandle): number => {
    if (ctx.typeof(h) !== 'string') return -1;
    const length = ctx.getProp(h, 'length');
    const n = ctx.getNumber(length);
    length.dispose();
    return n;
  };
  return (h, maxBytes) => {
    const n = lengthOf(h);
    if (n < 0 || n > maxBytes) return undefined;
    const text = ctx.getString(h);
    return utf8Bytes(text) > maxBytes ? undefined : text;
  };
}

/**
 * A call that failed inside the server rather than at the API (the host threw): it may have been sent, so
 * its outcome is unknown (docs/decisions/0217: every error carries code, executed, retry_same_key).
 */
export function internalError(err: unknown): Record<string, unknown> {
  const why = err instanceof Error ? err.message : String(err);
  return {
    code: 'internal_error',
    message: `The server failed while making this call (${why}). It may have been sent, so its outcome is not known; running the same script with the SAME idempotency_key resolves it: a write that completed is replayed, not repeated.`,
    executed: 'unknown',
    retry_same_key: true,
  };
}

const refuse = (code: string, message: string): Promise<HostAnswer> =>
  Promise.resolve({ ok: false, error: { code, message, executed: 'no', retry_same_key: true } });

/** The engine's `host(name, args)`: a promise the host's answer settles, or a refusal when a limit is reached. */
function hostFunction(
  ctx: QuickJSContext,
  st: RunState,
  limits: SandboxLimits,
  host: HostCall,
  signal: AbortSignal | undefined,
  copyOut: CopyOut,
): QuickJSHandle {
  return ctx.newFunction('host', (nameH, argsH) => {
    const deferred = ctx.newPromise();
    st.pending.add(deferred);
    const name = copyOut(nameH, 1024) ?? '';
    const args = copyOut(argsH, limits.argumentBytes);
    const settle = (answer: HostAnswer): void => {
      if (!st.alive) return;
      st.pending.delete(deferred);
      const text = ctx.newString(JSON.stringify(answer));
      deferred.resolve(text);
      text.dispose();
      deferred.dispose();
    };
    st.calls += 1;
    if (signal?.aborted) st.stopped ??= 'cancelled';
    const answer: Promise<HostAnswer> = st.stopped
      ? refuse('cancelled', 'The run was stopped; this call was not made.')
      : st.calls > limits.calls
        ? refuse('code_too_many_calls', `A run may make at most ${limits.calls} api calls; this one was not made.`)
        : st.pending.size > limits.callsInFlight
          ? refuse(
              'code_too_many_calls_in_flight',
              `A run may have at most ${limits.callsInFlight} api calls unanswered at once; this one was not made. Await some before starting more.`,
            )
          : args === undefined
            ? refuse(
                'arguments_too_large',
                `api.${name}: the arguments are more than ${limits.argumentBytes} bytes as JSON; this call was not made. Send less per call.`,
              )
            : host(name, args);
    const done = answer.then(settle, (err: unknown) => settle({ ok: false, error: internalError(err) }));
    st.inflight.add(done);
    void done.finally(() => st.inflight.delete(done));
    return deferred.handle;
  });
}

/** The engine's `log(line)`: console output, cut once it reaches a quarter of the output limit. */
function logFunction(
  ctx: QuickJSContext,
  st: RunState,
  limits: SandboxLimits,
  logs: string[],
  copyOut: CopyOut,
): QuickJSHandle {
  return ctx.newFunction('log', (lineH) => {
    if (st.logCut) return;
    const line = copyOut(lineH, limits.outputBytes / 4 - st.logBytes);
    if (line === undefined) {
      st.logCut = true;
      logs.push('[console output cut: limit reached]');
      return;
    }
    st.logBytes += utf8Bytes(line);
    logs.push(line);
  });
}

type Describe = (errH: QuickJSHandle) => string;
type LimitHit = (message: string) => SandboxResult | undefined;

/** The script's error as a message, and an interpreter fault (a limit hit) as its failure. */
function scriptFaults(
  ctx: QuickJSContext,
  describeFn: QuickJSHandle,
  segment: Segment,
  copyOut: CopyOut,
  st: RunState,
  limits: SandboxLimits,
  logs: string[],
): { describe: Describe; limitHit: LimitHit } {
  const fail = failWith(logs);
  /** The script's error as a message (run inside the sandbox: a thrown object's getters are its code). */
  const describe = (errH: QuickJSHandle): string => {
    const r = segment(() => ctx.callFunction(describeFn, ctx.undefined, errH));
    if (r.error) {
      r.error.dispose();
      return 'the script failed with a value that cannot be shown';
    }
    const text = copyOut(r.value, 16 * 1024);
    r.value.dispose();
    try {
      const e = JSON.parse(text ?? '') as { name: string; message: string; code?: string };
      return `${e.name}${e.code ? ` [${e.code}]` : ''}: ${e.message}`;
    } catch {
      return 'the script failed with a value that cannot be shown';
    }
  };
  /** Maps an interpreter fault (limit hit) to its code; `undefined` for the script's own error. */
  const limitHit = (message: string): SandboxResult | undefined => {
    if (st.stopped === 'cpu')
      return fail('code_timeout', `The script ran past its ${limits.cpuMs} ms CPU budget and was stopped.`);
    if (st.stopped === 'cancelled') return fail('cancelled', 'The caller stopped waiting, so the script was stopped.');
    if (st.stopped === 'wall')
      return fail('code_timeout', `The run took longer than ${limits.wallMs} ms and was stopped.`);
    if (/out of memory/i.test(message))
      return fail('code_out_of_memory', `The script used more than ${limits.memoryBytes} bytes of memory.`);
    if (/stack overflow|call stack size/i.test(message))
      return fail('code_stack_overflow', 'The script recursed too deeply (stack overflow).');
    return undefined;
  };
  return { describe, limitHit };
}

interface Started {
  runtime: QuickJSRuntime;
  ctx: QuickJSContext;
  /** The script's promise. */
  promise: QuickJSHandle;
  resultFn: QuickJSHandle;
  st: RunState;
  limits: SandboxLimits;
  options: SandboxOptions;
  segment: Segment;
  copyOut: CopyOut;
  logs: string[];
}

/** Runs the engine's jobs and waits for api calls until the script's promise settles, a limit is hit, or nothing is left to wait for. */
async function settleScript(s: Started, describe: Describe, limitHit: LimitHit): Promise<SandboxResult> {
  const { runtime, ctx, promise, resultFn, st, limits, segment, copyOut, logs } = s;
  const { signal, onPhase } = s.options;
  const fail = failWith(logs);
  for (;;) {
    const jobs = segment(() => runtime.executePendingJobs());
    if (jobs.error) {
      const message = describe(jobs.error);
      jobs.error.dispose();
      const hit = limitHit(message);
      if (hit) return hit;
    } else jobs.dispose();
    if (st.stopped) return limitHit('') as SandboxResult;
    const state = ctx.getPromiseState(promise);
    if (state.type === 'rejected') {
      const message = describe(state.error);
      state.error.dispose();
      return limitHit(message) ?? fail('code_threw', message);
    }
    if (state.type === 'fulfilled') {
      const r = segment(() => ctx.callFunction(resultFn, ctx.undefined, state.value));
      state.value.dispose();
      if (r.error) {
        const message = describe(r.error);
        r.error.dispose();
        return (
          limitHit(message) ??
          fail(
            'code_result_not_json',
            `The script's return value is not JSON (${message}); return plain objects, arrays, strings, numbers, booleans or null.`,
          )
        );
      }
      const room = limits.outputBytes - st.logBytes;
      const text = copyOut(r.value, room);
      r.value.dispose();
      if (text === undefined)
        return fail(
          'code_output_too_large',
          `The result is more than ${room} bytes as JSON, which is all that can be returned. Return less (select the fields you need).`,
        );
      return { ok: true, value: JSON.parse(text) as unknown, logs };
    }
    if (st.inflight.size === 0)
      return fail(
        'code_never_settles',
        'The script awaits something that never settles (only api.* calls resolve from outside).',
      );
    const left = limits.wallMs - (Date.now() - st.started);
    if (left <= 0) st.stopped = 'wall';
    if (signal?.aborted) st.stopped = 'cancelled';
    if (st.stopped) return limitHit('') as SandboxResult;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    onPhase?.('wait');
    await Promise.race([
      ...st.inflight,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, left);
        onAbort = resolve;
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    onPhase?.('run');
  }
}

function disposeQuietly(x: { dispose(): void }): void {
  try {
    x.dispose();
  } catch {
    // A runtime stopped mid-job may still hold objects; the wasm memory goes with it either way.
  }
}
