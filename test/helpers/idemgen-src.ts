/** The CLI from source, for tests that need it as a child process (`node --import tsx test/helpers/idemgen-src.ts serve …`). */
import { main } from '../../src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
