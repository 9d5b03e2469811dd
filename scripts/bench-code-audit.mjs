// Times `idemgen audit` on agent code: wall, CPU and peak RSS of a child process (requires `npm run build`).
// Default project: @openai/agents-core's published dist (~220 JS files, 2.6 MB). Usage: node scripts/bench-code-audit.mjs [glob]
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { loadavg } from 'node:os';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const glob = process.argv[2] ?? 'node_modules/@openai/agents-core/dist/**/*.js';
const script = `
  const t0 = performance.now(); const c0 = process.cpuUsage();
  const { main } = await import(${JSON.stringify(join(root, 'dist/cli/main.js'))});
  const { createLogger } = await import(${JSON.stringify(join(root, 'dist/cli/logger.js'))});
  let out = '';
  const sink = { write: (s) => { out += s; return true; } };
  const code = await main(['audit', ${JSON.stringify(glob)}, '--format', 'json', '--fail-on', 'none'], { cwd: ${JSON.stringify(root)}, logger: createLogger({ stdout: sink, stderr: sink, env: { CI: 'true' } }) });
  const cpu = process.cpuUsage(c0);
  const report = JSON.parse(out);
  console.log(JSON.stringify({ code, files: report.totals.sources.code.sources, findings: report.diagnostics.length,
    wallMs: Math.round(performance.now() - t0), cpuMs: Math.round((cpu.user + cpu.system) / 1000), peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024) }));
`;
const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
if (run.status !== 0) {
  process.stderr.write(run.stderr);
  process.exit(1);
}
console.log(JSON.stringify({ glob, loadAverage1m: loadavg()[0], ...JSON.parse(run.stdout) }));
