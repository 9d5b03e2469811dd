/**
 * Names of output files derived from inputs (api ids from spec file names today; titles or tool names if
 * ever). A segment is lower-case ASCII `[a-z0-9._-]`, so it cannot traverse (`..`, `/`, `\`), hide
 * (leading dot) or differ from another only by case; Windows device names are suffixed, because `CON`,
 * `nul.json` or `com1.gen.ts` open a device there whatever the extension.
 */

const DEVICE = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i;

/** Longest segment we derive: leaves room for suffixes like `.tools.json` within a 255-byte name. */
const MAX_SEGMENT = 100;

/** True when the part of `segment` before its first dot is a Windows device name. */
function isReservedFileName(segment: string): boolean {
  return DEVICE.test(segment.split('.')[0] ?? '') || /[. ]$/.test(segment);
}

/** `raw` made one safe, lower-case file-name segment (`fallback` when nothing usable is left). */
export function fileNameSegment(raw: string, fallback = 'api'): string {
  let out = String(raw)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .replace(/-{2,}/g, '-')
    .slice(0, MAX_SEGMENT)
    .replace(/[-.]+$/, '');
  if (out === '') out = fallback;
  if (!isReservedFileName(out)) return out;
  const dot = out.indexOf('.');
  return dot < 0 ? `${out}_` : `${out.slice(0, dot)}_${out.slice(dot)}`;
}

/**
 * Why `path` (relative to the output folder, `/`-separated) may not be written, or undefined. Checked at
 * the sink for every file, so no emitter bug can write outside `--out`.
 */
export function outputPathProblem(path: string): string | undefined {
  if (path.length === 0) return 'is empty';
  if (path.includes('\\') || path.includes('\0') || path.includes(':')) return 'contains `\\`, `:` or NUL';
  if (path.startsWith('/')) return 'is absolute';
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') return 'has an empty, `.` or `..` segment';
    if (isReservedFileName(segment)) return `has a reserved file name (${segment})`;
  }
  return undefined;
}
