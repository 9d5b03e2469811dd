/** RFC 6901 JSON pointers: parse, format and append. */

/** Split a pointer (`''` or `/a/b~1c`) into unescaped segments; `undefined` when malformed. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  // RFC 6901 §4: decode ~1 before ~0 so that "~01" becomes "~1", not "/".
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function escapeSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function formatPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${escapeSegment(s)}`).join('');
}

export function appendPointer(pointer: string, ...segments: (string | number)[]): string {
  return pointer + formatPointer(segments);
}
