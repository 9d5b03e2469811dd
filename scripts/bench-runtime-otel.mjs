/**
 * The cost of the OpenTelemetry hooks when the application registered no SDK: createIdempotency()
 * (API installed, no provider: no-op tracer and meter) against `telemetry: false`, on the memory store
 * so the store does not drown the difference. Alternating rounds; medians of per-call times.
 */
export async function benchTelemetry({ rt, CALLS }) {
  const time = async (idem, tag, n) => {
    const xs = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const t0 = process.hrtime.bigint();
      await idem.run({ operation: 'tool:send_email', key: `${tag}-${i}-0123456789abcdef`, args: { to: 'a' }, mechanism: 'fail-closed' }, async () => 1);
      xs[i] = Number(process.hrtime.bigint() - t0) / 1000;
    }
    xs.sort();
    return xs[n >> 1];
  };
  const store = rt.createMemoryStore();
  const on = rt.createIdempotency({ store });
  const off = rt.createIdempotency({ store, telemetry: false });
  await time(on, 'warm-on', 500);
  await time(off, 'warm-off', 500);
  const a = [];
  const b = [];
  for (let r = 0; r < 6; r++) {
    a.push(await time(on, `on${r}`, CALLS));
    b.push(await time(off, `off${r}`, CALLS));
  }
  const mid = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
  console.log(`\nOpenTelemetry hooks, no provider registered (memory store, median of 6 alternating rounds × ${CALLS} calls)`);
  console.log(`  telemetry: false            ${mid(b).toFixed(2).padStart(8)} µs`);
  console.log(`  default (API, no provider)  ${mid(a).toFixed(2).padStart(8)} µs   ratio ${(mid(a) / mid(b)).toFixed(3)}×, +${(mid(a) - mid(b)).toFixed(2)} µs per call`);
  await store.close();
}
