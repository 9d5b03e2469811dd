/**
 * Answers by route for raw-body tests, served by the counting fault server (test/helpers/fault-server.ts):
 * bytes echoed back, a fixed non-UTF-8 "PNG" per render, HTML, problem+json, unlabeled bytes, a PDF.
 */
import type { Answer, Respond } from '../../../helpers/fault-server.js';

/** Every byte value, twice, plus a lone 0xff 0xfe: not valid UTF-8, so any text round-trip would corrupt it. */
export const ALL_BYTES = Uint8Array.from([...Array(512).keys()].map((i) => i % 256).concat([0xff, 0xfe]));

/** A fixed, non-UTF-8 "PNG" per title: the bytes a render answers with. */
export function renderBytes(title: string): Uint8Array {
  const head = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  return Uint8Array.from([...head, ...Buffer.from(title, 'utf8'), 0x00, 0xff, 0x80]);
}

const answer = (status: number, contentType: string | undefined, body: Uint8Array | string): Answer => ({
  status,
  headers: contentType === undefined ? {} : { 'content-type': contentType },
  body,
});

export const bytesRoutes: Respond = (r, effect) => {
  if (r.path.startsWith('/artifacts/') || r.path === '/echo') return answer(200, 'application/octet-stream', r.bytes);
  if (r.path === '/renders') {
    const { title } = JSON.parse(r.body) as { title: string };
    return answer(200, 'image/png', renderBytes(`${title}#${effect}`));
  }
  if (r.path.startsWith('/notes/')) return answer(200, 'text/html; charset=utf-8', `<p>${r.body}</p>`);
  if (r.path === '/json') return answer(200, 'application/problem+json', JSON.stringify({ ok: true, n: effect }));
  if (r.path.startsWith('/files/')) return answer(200, undefined, ALL_BYTES); // unlabeled bytes
  if (r.path === '/unlabeled') return answer(200, undefined, 'plain words');
  if (r.path === '/pdf') return answer(200, 'application/pdf', Buffer.from('%PDF-1.7\n\u00ff'));
  return answer(404, 'text/plain', 'no route');
};
