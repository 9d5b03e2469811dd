/**
 * RFC 6901 JSON pointers: parse, format and append. The one place idemgen escapes or unescapes a pointer
 * token (`~0`, `~1`); the runtime keeps its own copy because it imports nothing of the generator.
 */

/** Split a pointer (`''` or `/a/b~1c`) into unescaped segments; `undefined` when malformed. */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer.slice(1).split('/').map(unescapeSegment);
}

/** One pointer token decoded (RFC 6901 §4: `~1` before `~0`, so `~01` becomes `~1`, not `/`). */
function unescapeSegment(token: string): string {
  // Most tokens hold no `~` (a hot path: every `$ref` of every tool is parsed).
  return token.includes('~') ? token.replace(/~1/g, '/').replace(/~0/g, '~') : token;
}

export function escapeSegment(segment: string | number): string {
  const text = String(segment);
  return text.includes('~') || text.includes('/') ? text.replace(/~/g, '~0').replace(/\//g, '~1') : text;
}

export function formatPointer(segments: readonly (string | number)[]): string {
  return appendPointer('', ...segments);
}

export function appendPointer(pointer: string, ...segments: (string | number)[]): string {
  let out = pointer;
  for (const segment of segments) out += `/${escapeSegment(segment)}`;
  // Joined strings are kept by V8 as trees of their pieces until something reads their characters; reading one
  // here makes the pointer one flat string. The IR keeps some 100,000 pointers on Graph (most used as map keys
  // later, which flattens them anyway): as trees they were a quarter more memory and many more objects for
  // each young-generation collection to copy.
  out.charCodeAt(0);
  return out;
}
