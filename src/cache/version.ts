/** idemgen's own version, from the package.json next to src/ and dist/. */
import { readFileSync } from 'node:fs';
import { PACKAGE_ROOT } from '../package-files.js';

export const VERSION = (JSON.parse(readFileSync(new URL('package.json', PACKAGE_ROOT), 'utf8')) as { version: string })
  .version;
