/** `idemgen generate`: the main job — specs in, generated/ out (atomically), with an input cache and --watch. */
import { createHash } from 'node:crypto';
import {
  cacheable,
  cacheFile,
  dropCache,
  fingerprintInputs,
  hashBundledParts,
  isUpToDate,
  saveCache,
} from '../cache.js';
import { resolveRun, reportInputDiagnostics, type CliContext, type CommonArgs } from '../context.js';
import { reportError } from '../diagnostics.js';
import { watchInputs } from '../watch.js';
import {
  displayPath,
  outputFolderProblem,
  outputWriteError,
  stageOutput,
  type Staging,
  type WriteHooks,
} from '../output-dir.js';
import type { FileSink } from '../../emit/types.js';
import { ARTIFACT_NAMES } from '../../emit/registry.js';
import { InputError } from '../../diagnostics/diagnostic.js';
import { paint } from '../logger.js';
import { isInstalled, MCP_SDK } from '../peers.js';
import { strictErrors } from '../strict.js';

export interface GenerateArgs extends CommonArgs {
  cache?: boolean;
  watch?: boolean;
  /** Refuse (exit 2, nothing written) when a `$ref` is broken instead of generating `unknown` for it. */
  strict?: boolean;
}

function summarize(files: { path: string }[]): string {
  const counts = new Map<string, number>();
  for (const f of files) counts.set(f.path.split('/')[0], (counts.get(f.path.split('/')[0]) ?? 0) + 1);
  return [...counts]
    .sort()
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
}

/** Bytes gathered before one write: fewer, larger writes took half the time of one write per chunk on Graph. */
const BATCH_BYTES = 1 << 20;

/**
 * Streams every file into the staging folder and, when the run keeps a cache (`hashing`), records each
 * file's sha256 for it as it goes (the same digest as hashing the whole text: sha256 over the UTF-8 bytes,
 * fed chunk by chunk); a `--no-cache` run records the paths only, as nothing reads the digests. Chunks are
 * encoded straight into one reused buffer per file and written when it is full, so Graph's ~300 MB in
 * tens of thousands of chunks take a few hundred writes and no per-chunk allocation.
 */
function stagingSink(staging: Staging, written: Record<string, string>, hashing: boolean): FileSink {
  // Buffers of ended files are reused: Graph writes ~110 files, and a fresh 1 MiB each would sit in RSS until a GC.
  const spare: Buffer[] = [];
  return {
    file(path) {
      const out = staging.file(path);
      const hash = hashing ? createHash('sha256') : undefined;
      let batch: Buffer | undefined;
      let used = 0;
      const flush = (): void => {
        if (batch !== undefined && used > 0) out.writeBytes(batch.subarray(0, used));
        used = 0;
      };
      return {
        write(chunk) {
          // UTF-8 takes at most 3 bytes per UTF-16 code unit: a chunk that surely fits the batch is encoded
          // without measuring it first (measuring every chunk was a second pass over all the output).
          if (chunk.length * 3 > BATCH_BYTES - used) {
            const length = Buffer.byteLength(chunk);
            if (used + length > BATCH_BYTES) flush();
            if (length > BATCH_BYTES) {
              // Large chunks (a whole client file) as strings: Node encodes them into memory it frees at once,
              // where a Buffer would sit in RSS until the next GC.
              out.write(chunk);
              hash?.update(chunk);
              return;
            }
          }
          batch ??= spare.pop() ?? Buffer.allocUnsafe(BATCH_BYTES);
          const length = batch.write(chunk, used);
          hash?.update(batch.subarray(used, used + length));
          used += length;
        },
        end() {
          flush();
          if (batch !== undefined) spare.push(batch);
          batch = undefined;
          out.end();
          written[path] = hash === undefined ? '' : hash.digest('hex');
        },
      };
    },
  };
}

export async function generateOnce(ctx: CliContext, args: GenerateArgs, hooks: WriteHooks = {}): Promise<number> {
  const { config, inputs, outDir, configInputs } = await resolveRun(ctx, args);
  const where = displayPath(outDir, ctx.cwd);
  const unsafe = outputFolderProblem(outDir, {
    cwd: ctx.cwd,
    sources: config.configFile === undefined ? inputs : [...inputs, config.configFile],
    folders: new Set(ARTIFACT_NAMES),
  });
  if (unsafe !== undefined) throw new InputError([unsafe]);
  const cache = cacheFile(ctx.cwd, outDir);
  // A strict run checks what a lenient one let through, so it never reuses the lenient run's cache entry.
  const fingerprint =
    args.cache === false ? '' : fingerprintInputs(inputs, config, outDir) + (args.strict ? ':strict' : '');
  if (args.cache !== false && isUpToDate(cache, fingerprint, outDir)) {
    ctx.logger.info(
      `${where}/ is up to date: inputs, config and idemgen unchanged since the last run (nothing to do; --no-cache to force).`,
    );
    return 0;
  }
  ctx.logger.progress('Loading and classifying…');
  // Loaded only now: an unchanged re-run (the cache hit above) never pays for the emitters' dependencies.
  const { analyze, emitEach } = await import('../../pipeline.js');
  const analysis = await analyze(inputs, config, ctx.cwd, [], { checkOverrides: configInputs });
  // Input errors (and, with --strict, broken refs) stop the run before anything is staged.
  const stopping = analysis.diagnostics
    .filter((d) => d.severity === 'error')
    .concat(args.strict ? strictErrors(analysis.diagnostics) : []);
  reportInputDiagnostics(ctx, { ...analysis, diagnostics: stopping });
  ctx.logger.progress('Emitting…');
  let staging: Staging;
  try {
    staging = stageOutput(outDir, hooks);
  } catch (err) {
    throw outputWriteError(err, outDir) ?? err;
  }
  const written: Record<string, string> = {};
  try {
    const emitDiagnostics = await emitEach(analysis.plan, config, stagingSink(staging, written, args.cache !== false));
    reportInputDiagnostics(ctx, analysis, emitDiagnostics);
  } catch (err) {
    staging.abort();
    throw outputWriteError(err, outDir) ?? err;
  }
  if (analysis.apis.length === 0) {
    ctx.logger.info(
      `No OpenAPI specs or tool definitions found in ${inputs.map((i) => displayPath(i, ctx.cwd)).join(', ')}: only the shared dedup migrations are generated.`,
    );
  }
  try {
    staging.commit();
  } catch (err) {
    throw outputWriteError(err, outDir) ?? err;
  }
  // A run whose refs did not all resolve is not remembered: the file a ref names may appear, or be fixed,
  // anywhere, and only a run that reads it again can tell.
  if (args.cache !== false) {
    if (cacheable(analysis.diagnostics))
      saveCache(cache, fingerprint, written, hashBundledParts(analysis.docs, ctx.cwd));
    else dropCache(cache);
  }
  const paths = Object.keys(written).map((path) => ({ path }));
  if (paths.some((p) => p.path.startsWith('mcp/')) && !isInstalled(ctx.cwd, MCP_SDK))
    ctx.logger.info(
      `note: ${where}/mcp/ (artifact mcp) imports ${MCP_SDK}, which is not installed here: npm install ${MCP_SDK}, or leave mcp out of artifacts`,
    );
  const entries = analysis.plan.apis.flatMap((a) => a.entries);
  const writes = entries.filter((e) => e.effect === 'write').length;
  const findings = analysis.plan.diagnostics.filter((d) => d.severity !== 'info');
  ctx.logger.info(
    `${paint(ctx.logger.color, 'green', '✔')} ${analysis.apis.length} input(s), ${entries.length} operation(s) (${writes} write) → ` +
      `${paths.length} file(s) in ${where}/ (${summarize(paths)})` +
      (findings.length > 0 ? `; ${findings.length} audit finding(s): run \`idemgen audit\`` : ''),
  );
  return 0;
}

export async function generateCommand(ctx: CliContext, args: GenerateArgs): Promise<number> {
  if (!args.watch) return generateOnce(ctx, args);
  // What to watch comes from the config as it is now (a broken config stops here, as without --watch). A run
  // that stops on the user's input is reported and the watch goes on: the fix is the next save.
  const { inputs, outDir, config } = await resolveRun(ctx, args);
  const once = (): Promise<number> => generateOnce(ctx, args).catch((err: unknown) => reportError(err, ctx.logger));
  if ((await once()) === 3) return 3;
  // One run at a time: a change during a run starts one more run after it, never a second beside it.
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let again = false;
  const run = (): void => {
    if (running !== undefined) {
      again = true;
      return;
    }
    running = once().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        run();
      }
    });
  };
  const stop = watchInputs(inputs, { outDir, configFile: config.configFile, cwd: ctx.cwd }, () => {
    clearTimeout(timer);
    timer = setTimeout(run, 100);
  });
  ctx.logger.info(`Watching ${inputs.map((i) => displayPath(i, ctx.cwd)).join(', ')} — Ctrl-C to stop.`);
  await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
  clearTimeout(timer);
  stop();
  await running;
  return 0;
}
