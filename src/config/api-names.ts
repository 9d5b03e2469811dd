/**
 * `apiName`: the name an API's client, tool files and class take instead of one derived from its file name
 * (`stripe-spec3.2023-09-12.yaml` → `createStripeClient`, not `createStripeSpec320230912Client`). Set
 * per input — `inputs: [{ path: vendor/stripe.yaml, apiName: stripe }]` — or once at the top level when
 * the run has a single API.
 */
import { relative, resolve } from 'node:path';
import { isInside } from '../paths.js';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';

export interface InputEntry {
  path: string;
  apiName?: string;
}

/** Letters first, then letters, digits, `-`, `_`: safe as a file name and as a TypeScript identifier part. */
const API_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,62}$/;

export function checkApiName(value: unknown, pointer: string, file: string): Diagnostic[] {
  if (typeof value === 'string' && API_NAME.test(value)) return [];
  return [
    diagnostic(
      'invalid_config',
      'error',
      `${pointer} must start with a letter and use letters, digits, - or _ (≤ 63 chars)`,
      { file, pointer },
    ),
  ];
}

/** `inputs` entries may be paths or `{ path, apiName }`. */
export function checkInputs(value: unknown, pointer: string, file: string): Diagnostic[] {
  if (!Array.isArray(value))
    return [
      diagnostic('invalid_config', 'error', `${pointer} must be an array of paths or { path, apiName }`, {
        file,
        pointer,
      }),
    ];
  return value.flatMap((v, i): Diagnostic[] => {
    const at = `${pointer}/${i}`;
    if (typeof v === 'string') return [];
    if (typeof v !== 'object' || v === null || typeof (v as InputEntry).path !== 'string') {
      return [
        diagnostic('invalid_config', 'error', `${at} must be a path or { path, apiName }`, { file, pointer: at }),
      ];
    }
    const extra = Object.keys(v).filter((k) => k !== 'path' && k !== 'apiName');
    const unknown = extra.map((k) =>
      diagnostic('invalid_config', 'error', `Unknown key "${k}" in ${at} (expected path, apiName)`, {
        file,
        pointer: `${at}/${k}`,
      }),
    );
    return [
      ...unknown,
      ...((v as InputEntry).apiName === undefined
        ? []
        : checkApiName((v as InputEntry).apiName, `${at}/apiName`, file)),
    ];
  });
}

/** The id an API gets: the per-input name of the input that holds its file, else the top-level name. */
export function namedApiIds(
  files: readonly string[],
  cwd: string,
  apiNames: Readonly<Record<string, string>>,
  apiName: string | undefined,
): { ids: (string | undefined)[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const inside = (file: string, input: string): boolean => isInside(resolve(cwd, file), resolve(cwd, input));
  const ids = files.map((file) => {
    const hit = Object.entries(apiNames).find(([input]) => inside(file, input));
    return hit?.[1].toLowerCase();
  });
  for (const [input, name] of Object.entries(apiNames)) {
    const n = files.filter((f) => inside(f, input)).length;
    if (n > 1)
      diagnostics.push(
        diagnostic(
          'invalid_config',
          'error',
          `apiName "${name}" is set for ${relative(cwd, input) || '.'}, which holds ${n} APIs: name its files one by one`,
        ),
      );
  }
  if (apiName !== undefined) {
    if (files.length > 1)
      diagnostics.push(
        diagnostic(
          'invalid_config',
          'error',
          `apiName "${apiName}" names one API, but this run has ${files.length}: set apiName per input ({ path, apiName }) instead`,
        ),
      );
    else if (ids[0] === undefined && files.length === 1) ids[0] = apiName.toLowerCase();
  }
  return { ids, diagnostics };
}
