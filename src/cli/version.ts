/** idemgen's own version (src/cache/version.ts, below the CLI and `serve`). */
export { VERSION } from '../cache/version.js';
