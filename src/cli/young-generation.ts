/**
 * How much memory V8's young generation may take during a batch run (every command that goes through
 * `resolveRun`: generate, check, audit, migrate, reconcile --verify): decision 0224.
 *
 * V8 doubles the young generation's semi-spaces (1 → 16 MiB each, 32 MiB committed) while a run allocates
 * quickly. On a spec of a few MiB that growth is most of the gap between the heap a run uses and the memory
 * it holds, and buys no speed: Stripe, GitHub, Mailchimp, Zuora and loket.nl ran as fast or faster with the
 * young generation left at its first size, and held 20–27 MiB less. On Microsoft Graph (20 MB) the larger
 * young generation pays for itself (6 % faster). So the young generation stays at its first size while the
 * run's input files are small, and grows as V8 likes for large ones.
 */
import { statSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { inputFiles } from '../cache/fingerprint.js';

/** Input bytes from which the young generation may grow (GitHub's full spec is 13 MB, Graph's 20 MB). */
export const LARGE_INPUT_BYTES = 16 * 2 ** 20;

/** V8's own growth factor (`--semi-space-growth-factor`'s default). */
const V8_GROWTH_FACTOR = 2;

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
  setFlagsFromString(`--semi-space-growth-factor=${factor}`);
  return factor;
}
