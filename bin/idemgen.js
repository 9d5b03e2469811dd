#!/usr/bin/env node
// The CLI as one bundle (scripts/bundle-cli.mjs): dist/cli/main.js is the same code as separate modules.
import { main } from '../dist/cli-bundle/main.js';

// `idemgen audit … | head -1`: the reader went away. Like other Unix tools, stop writing quietly and keep
// the command's own exit code instead of crashing with an unhandled EPIPE.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
    stream.write = () => true;
  });
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
