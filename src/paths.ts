/** Where one path lies relative to another: the one containment test for the config, the loader and the CLI. */
import { isAbsolute, relative, sep } from 'node:path';

/**
 * Whether `path` is `folder` or lies below it (both absolute). Not a prefix test: `/a/bc` is not inside `/a/b`;
 * a folder named `..x` is inside; another drive (Windows) is not.
 */
export function isInside(path: string, folder: string): boolean {
  const r = relative(folder, path);
  return r === '' || (!isAbsolute(r) && r !== '..' && !r.startsWith(`..${sep}`));
}
