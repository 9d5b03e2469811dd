/**
 * `generate --watch`: which file-system events start another run. A folder input is watched recursively, but
 * only a change to a file a run reads counts: a spec file as the folder walk finds it (src/spec-files.ts:
 * not in a dot-folder or `node_modules`, not under the output folder) or the config file. Everything else in
 * the folder (the run's own output and staging folders, the cache under node_modules, a log the user
 * redirects into the folder) would otherwise start a run that starts the next one.
 */
import { type FSWatcher, statSync, watch } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { passedOver, SPEC_EXTENSIONS } from '../spec-files.js';
import { diagnostic, InputError } from '../diagnostics/diagnostic.js';
import { displayPath } from '../load/discover.js';
import { isInside } from '../paths.js';

/** Whether a change to `file` (absolute) inside the watched folder `root` is one a run would read. */
function changeCounts(root: string, file: string, outDir: string, configFile: string | undefined): boolean {
  if (configFile !== undefined && resolve(file) === resolve(configFile)) return true;
  if (isInside(file, outDir)) return false;
  const below = file.slice(root.length + 1).split(sep);
  if (below.some(passedOver)) return false;
  return SPEC_EXTENSIONS.test(file);
}

/**
 * Watches `inputs` (files or folders) and the config file; calls `onChange` for each change that counts.
 * Returns the function that stops watching.
 */
export function watchInputs(
  inputs: readonly string[],
  where: { outDir: string; configFile?: string; cwd: string },
  onChange: () => void,
): () => void {
  const watchers: FSWatcher[] = [];
  const stop = (): void => {
    for (const w of watchers) w.close();
  };
  // A path that cannot be watched (its folder does not exist) stops the command, as a missing input does.
  const add = (path: string, recursive: boolean, onEvent: (name: string | null) => void): void => {
    try {
      watchers.push(watch(path, { recursive }, (_event, name) => onEvent(name === null ? null : name.toString())));
    } catch (err) {
      stop();
      const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
      const shown = displayPath(path, where.cwd);
      throw new InputError([
        diagnostic('input_not_found', 'error', `cannot watch ${shown} (${code})`, {
          file: shown,
          hint: 'watch an existing folder or a file in one',
        }),
      ]);
    }
  };
  const files = new Set<string>();
  for (const input of inputs) {
    if (statSync(input, { throwIfNoEntry: false })?.isDirectory())
      add(input, true, (name) => {
        if (name === null || changeCounts(input, join(input, name), where.outDir, where.configFile)) onChange();
      });
    else files.add(input);
  }
  if (where.configFile !== undefined) files.add(where.configFile);
  // A file is watched through its folder: editors replace a file by renaming a new one over it, which ends a
  // watch on the file itself.
  for (const file of files)
    add(dirname(file), false, (name) => {
      if (name === null || resolve(dirname(file), name) === resolve(file)) onChange();
    });
  return stop;
}
