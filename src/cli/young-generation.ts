/**
 * How much memory V8's young generation may take during a batch run (every command that goes through
 * `resolveRun`: generate, check, audit, migrate, reconcile --verify): decision 0224.
 *
 * V8 doubles the young generation's semi-spaces (1 → 16 MiB each, 32 MiB committed) while a run allocates
 * quickly. On a spec of a few MiB that growth is most of the gap between the heap a run uses and the memory
 * it holds, and buys no speed: Stripe, GitHub, Mailchimp, Zuora and loket.nl ran as fast or faster with the
 * young generation held at 2 MiB per semi-space, and held 20–27 MiB less. On Microsoft Graph (20 MB) the larger
 * young generation pays for itself (6 % faster). So the young generation is set to 2 MiB per semi-space and
 * stays there while the run's input files are small, and grows as V8 likes for large ones. Set, not left as
 * start-up leaves it: how much the CLI allocates before a run (it parsed its command line with yargs until
 * decision 0230) decided whether V8 had grown it from 1 to 2 MiB, and 1 MiB costs Stripe ~90 more collections.
 */
import { statSync } from 'node:fs';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { inputFiles } from '../cache/fingerprint.js';

/** Input bytes from which the young generation may grow (GitHub's full spec is 13 MB, Graph's 20 MB). */
export const LARGE_INPUT_BYTES = 16 * 2 ** 20;

/** V8's own growth factor (`--semi-space-growth-factor`'s default). */
const V8_GROWTH_FACTOR = 2;

/**
 * The young generation a run over small inputs keeps: 2 MiB per semi-space (V8 reports both), the size 0224
 * measured as the fastest for them (1 MiB: 4 % slower on Stripe, 4 or 8 MiB: 1–3 %).
 */
export const SMALL_INPUT_YOUNG_BYTES = 4 * 2 ** 20;

/** Allocation after which `growYoungGeneration` gives up (V8 may cap the young generation lower). */
const GROWTH_ALLOCATION_LIMIT = 64 * 2 ** 20;

/** The bytes of V8's young generation (both semi-spaces). */
export function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * Grows the young generation to `target` bytes now, whatever start-up allocated. V8 grows it (by the growth
 * factor, 2 here) after a collection when more bytes survived since its last growth than it holds, so this
 * keeps arrays alive until that happens, then drops them (they die young). ~2–6 ms, once per run.
 */
function growYoungGeneration(target: number): void {
  if (youngGenerationBytes() >= target) return;
  setFlagsFromString(`--semi-space-growth-factor=${V8_GROWTH_FACTOR}`);
  let kept: number[][] = [];
  // 64 arrays of 1,024 small integers (4–8 KiB each) between two looks at the heap.
  for (let bytes = 0; bytes < GROWTH_ALLOCATION_LIMIT && youngGenerationBytes() < target; bytes += 64 * 8192)
    for (let i = 0; i < 64; i++) kept.push(new Array<number>(1024).fill(i));
  kept = [];
}

/** Whether the user sized the young generation themselves (`node --max-semi-space-size=…`, NODE_OPTIONS). */
function userSized(): boolean {
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  return /semi[-_]space/.test(flags);
}

/** The bytes of the spec files a run reads (the files the cache fingerprints: folders walked for .json/.yaml). */
export function inputBytes(inputs: readonly string[]): number {
  let bytes = 0;
  for (const file of inputFiles(inputs)) bytes += statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  return bytes;
}

/**
 * Sizes the young generation for a run over `inputs` and returns the growth factor set; `undefined` (nothing
 * set) when the user sized it with a semi-space flag of their own.
 */
export function sizeYoungGeneration(inputs: readonly string[]): number | undefined {
  if (userSized()) return undefined;
  const factor = inputBytes(inputs) < LARGE_INPUT_BYTES ? 1 : V8_GROWTH_FACTOR;
  if (factor === 1) growYoungGeneration(SMALL_INPUT_YOUNG_BYTES);
  setFlagsFromString(`--semi-space-growth-factor=${factor}`);
  return factor;
}
