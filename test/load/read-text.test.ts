/**
 * A spec file is decoded whole up to 16 MiB and in Node's 512 KiB pieces above it (src/load/source.ts). Both
 * ways must give the text `readFile(…, 'utf8')` gives: a BOM, characters of two to four bytes split across piece
 * boundaries, and invalid sequences (U+FFFD), read asynchronously and synchronously (a bundled `$ref` part).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isSource, SourceCache, type Source } from '../../src/load/source.js';

const PIECE = 512 * 1024;
const WHOLE_LIMIT = 16 * 1024 * 1024;

/** A JSON document `{"pad":"…","text":"<chars>"}` whose multibyte characters straddle piece boundaries. */
function documentBytes(size: number): Buffer {
  const head = Buffer.from('\uFEFF{"pad":"');
  const chars = 'é€😀\u202F';
  const tail = Buffer.concat([Buffer.from(`","text":"${chars}`), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]);
  const pad = Buffer.alloc(size - head.length - tail.length, 'a');
  // Multibyte characters across every boundary of the first pieces: the decoder must join their bytes.
  for (let at = PIECE - head.length - 2; at + 8 < pad.length && at < 8 * PIECE; at += PIECE)
    Buffer.from('é€😀').copy(pad, at);
  return Buffer.concat([head, pad, tail]);
}

function parsed(source: Source): unknown {
  if (source.parsed?.ok !== true) throw new Error(`not parsed: ${JSON.stringify(source.parsed)}`);
  return source.parsed.value;
}

describe('reading a spec file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idemgen-read-text-'));
  // Two of the files are 16 MiB: not left behind in the temporary folder.
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const cases = [
    ['small (decoded whole)', 3 * PIECE + 17],
    ['at the limit (decoded whole)', WHOLE_LIMIT],
    ['over the limit (decoded in pieces)', WHOLE_LIMIT + 1],
  ] as const;

  for (const [what, size] of cases)
    it(`${what}: the same document as readFile(…, 'utf8') gives, read async and sync`, async () => {
      const file = join(dir, `doc-${size}.json`);
      const bytes = documentBytes(size);
      expect(bytes.length).toBe(size);
      writeFileSync(file, bytes);
      const expected = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, '')) as { pad: string; text: string };
      expect(expected.text).toBe('é€😀\u202F\uFFFD(');
      expect(expected.pad).toContain('é€😀');
      for (const read of [(c: SourceCache) => c.read(file), async (c: SourceCache) => c.readSync(file)]) {
        const source = await read(new SourceCache((abs) => abs));
        expect(isSource(source)).toBe(true);
        expect(parsed(source as Source)).toEqual(expected);
      }
    });
});
