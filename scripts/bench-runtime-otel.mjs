/**
 * The cost of the OpenTelemetry hooks when the application registered no SDK: createIdempotency()
 * (API installed, no provider) against `telemetry: false`, on the memory store so the store does not
 * drown the difference. Calls interleave one by one (the order alternating) so a loaded machine slows
 * both alike; the figure is the median over rounds of each round's per-call median.
 */
export async function benchTelemetry({ rt, CALLS }) {
  const store = rt.createMemoryStore();
  const idems = { on: rt.createIdempotency({ store }), off: rt.createIdempotency({ store, telemetry: false }) };
  const call = (x, key) =>
    idems[x].run({ operation: 'tool:send_email', key, args: { to: 'a' }, mechanism: 'fail-closed' }, async () => 1);
  for (let i = 0; i < 500; i++) for (const x of ['on', 'off']) await call(x, `warm-${x}-${i}-0123456789abcdef`);
  const rounds = 6;
  const acc = { on: [], off: [] };
  for (let r = 0; r < rounds; r++) {
    const xs = { on: new Float64Array(CALLS), off: new Float64Array(CALLS) };
    for (let i = 0; i < CALLS; i++) {
      for (const x of i % 2 ? ['on', 'off'] : ['off', 'on']) {
        const t0 = process.hrtime.bigint();
        await call(x, `${x}${r}-${i}-0123456789abcdef`);
        xs[x][i] = Number(process.hrtime.bigint() - t0) / 1000;
      }
    }
    acc.on.push(xs.on.sort()[CALLS >> 1]);
    acc.off.push(xs.off.sort()[CALLS >> 1]);
  }
  const mid = (xs) => [...xs].sort((x, y) => x - y)[xs.length >> 1];
  const [a, b] = [mid(acc.on), mid(acc.off)];
  console.log(
    `\nOpenTelemetry hooks, no provider registered (memory store, per-call interleaved, median of ${rounds} rounds × ${CALLS} calls)`,
  );
  console.log(`  telemetry: false            ${b.toFixed(2).padStart(8)} µs`);
  console.log(
    `  default (API, no provider)  ${a.toFixed(2).padStart(8)} µs   ratio ${(a / b).toFixed(3)}×, ${a - b >= 0 ? '+' : ''}${(a - b).toFixed(2)} µs per call`,
  );
  await store.close();
}
