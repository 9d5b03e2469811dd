// Code mode's per-run cost with and without a thread per run, and the server's memory under 8 hostile runs
// at once (requires `npm run build`). Before: the sandbox in the calling thread (runInSandbox, a fresh wasm
// instance per run). After: runInWorker (a thread per run from the warm pool). Usage: node scripts/bench-code-isolation.mjs [runs]
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { DEFAULT_LIMITS, runInSandbox } = await import(join(root, 'dist/serve/code/sandbox.js'));
const { runInWorker, warmSandbox } = await import(join(root, 'dist/serve/code/isolate.js'));
const runs = Number(process.argv[2] ?? 30);
const script = 'const a = await api.ping({ n: 1 }); const b = await api.ping({ n: a.n + 1 }); return b.n;';
const host = async (_tool, text) => ({ ok: true, value: { n: JSON.parse(text).n } });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mib = () => Math.round(process.memoryUsage.rss() / 1024 / 1024);

async function time(run) {
  const out = [];
  for (let i = 0; i < runs; i += 1) {
    const t = performance.now();
    const r = await run();
    if (!r.ok || r.value !== 2) throw new Error(`unexpected run result ${JSON.stringify(r)}`);
    out.push(performance.now() - t);
  }
  return out;
}

const t0 = performance.now();
await warmSandbox();
const warmMs = Math.round(performance.now() - t0);
const before = await time(() => runInSandbox(script, ['ping'], host, DEFAULT_LIMITS));
// Back to back: a run takes a warm thread and the pool starts another in the background.
const after = await time(() => runInWorker(script, ['ping'], host, DEFAULT_LIMITS));
// Paced: the pool is refilled before each run (the cost a run sees when runs are not back to back).
const paced = await time(async () => {
  await new Promise((r) => setTimeout(r, 300));
  return runInWorker(script, ['ping'], host, DEFAULT_LIMITS);
});

const HOSTILE = [
  'for (;;) {}',
  'const x = 2n ** 1000000n; let n = 0; for (let i = 0; i < 8; i++) n += x.toString().length; return n;',
  'const a = []; for (;;) a.push(new Array(1e5).fill(a.length));',
  'let s = ""; for (let i = 0; i < 4000; i++) s += "y".repeat(1000); for (;;) console.log(s, s);',
  'const big = "x".repeat(3e6); for (let i = 0; i < 100; i++) { try { await api.ping({ pad: big + i }); } catch (e) {} } for (;;) {}',
  'const a = []; for (;;) a.push("x".repeat(1e5) + a.length);',
  'api.ping({ n: 1 }); for (;;) {}',
  'let d = {}; for (let i = 0; i < 1e5; i++) d = { d }; return JSON.stringify(d).length;',
];
await new Promise((r) => setTimeout(r, 1000));
const baseline = mib();
let peak = baseline;
const sampler = setInterval(() => (peak = Math.max(peak, mib())), 50);
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
const t1 = performance.now();
const hostile = await Promise.all(HOSTILE.map((code) => runInWorker(code, ['ping'], host, DEFAULT_LIMITS)));
const hostileMs = Math.round(performance.now() - t1);
delay.disable();
clearInterval(sampler);

const ms = (x) => Math.round(x * 10) / 10;
console.log(
  JSON.stringify(
    {
      runs,
      loadAverage1m: loadavg()[0],
      warmUpMs: warmMs,
      perRunMedianMs: {
        inThread: ms(median(before)),
        workerBackToBack: ms(median(after)),
        workerPaced: ms(median(paced)),
      },
      ratio: { backToBack: ms(median(after) / median(before)), paced: ms(median(paced) / median(before)) },
      hostile: {
        runs: HOSTILE.length,
        outcomes: hostile.map((r) => (r.ok ? 'ok' : r.code)),
        wallMs: hostileMs,
        rssMiB: { baseline, peak },
        eventLoopDelayMs: { p99: ms(delay.percentile(99) / 1e6), max: ms(delay.max / 1e6) },
      },
    },
    null,
    2,
  ),
);
process.exit(0);
