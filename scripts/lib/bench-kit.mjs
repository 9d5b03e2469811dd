/**
 * What the runtime benchmarks share: a local API that answers every request with one JSON body, and
 * generated modules pointed at a chosen runtime (the sources, or another commit's build) instead of the
 * `@idemgen/runtime…` package they import.
 */
import { createServer } from 'node:http';

/** A node:http server on 127.0.0.1 answering every request, once its body is read, with `status` and `body`. */
export async function startJsonServer(body, status = 200) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

/**
 * `text` (a generated module) with each `"@idemgen/runtime…"` specifier replaced by `entryOf(subpath)`
 * (`''`, `'/support'`, `'/tools'`, …): an absolute path or a file URL.
 */
export const withRuntimeAt = (text, entryOf) =>
  text.replace(/"@idemgen\/runtime(\/[a-z-]+)?"/g, (_, sub = '') => JSON.stringify(entryOf(sub)));
