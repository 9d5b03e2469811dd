/**
 * Response bodies by media type (RFC 9110 §8.3): JSON is parsed, text comes back as a string, anything
 * else (octet-stream, image/*, application/pdf, …) as a `Blob` carrying the response's content type.
 * Generated clients pin the kind their types promise (`responseType`) for success answers; error answers
 * are always read by content type so the retry logic can read their text.
 */

/** `auto` decides by content type; the others hold for 2xx answers only. */
export type ResponseType = 'auto' | 'json' | 'text' | 'blob';

/** Textual media types that are not `text/*`, and any type that declares a charset. */
const TEXTUAL = /^text\/|xml|javascript|ecmascript|x-www-form-urlencoded|yaml|csv|charset=/i;

function responseKind(contentType: string | null): 'json' | 'text' | 'blob' {
  if (contentType === null || contentType.trim() === '') return 'text'; // unlabeled: text, as before (documented)
  if (/json/i.test(contentType)) return 'json';
  return TEXTUAL.test(contentType) ? 'text' : 'blob';
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text; // a mislabeled body stays readable
  }
}

export async function readResponseBody(res: Response, expected: ResponseType = 'auto'): Promise<unknown> {
  const pinned = expected !== 'auto' && res.status >= 200 && res.status < 300;
  const kind = pinned ? expected : responseKind(res.headers.get('content-type'));
  switch (kind) {
    case 'json':
      return readJson(res);
    case 'text': {
      const text = await res.text();
      return text === '' && !pinned ? null : text;
    }
    case 'blob': {
      // 204/205 carry no content (RFC 9110 §15.3.5): no Blob to hand back.
      if (res.status === 204 || res.status === 205) return null;
      const blob = await res.blob();
      return blob.size === 0 && !pinned ? null : blob;
    }
  }
}
