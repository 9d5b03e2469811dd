/** The JSON Pointer pieces the strict converter needs (the runtime imports nothing outside itself). */

/** One pointer token encoded (RFC 6901: `~` → `~0`, `/` → `~1`). */
function escapeSegment(segment: string | number): string {
  const text = String(segment);
  return text.includes('~') || text.includes('/') ? text.replace(/~/g, '~0').replace(/\//g, '~1') : text;
}

export function appendPointer(pointer: string, ...segments: (string | number)[]): string {
  let out = pointer;
  for (const segment of segments) out += `/${escapeSegment(segment)}`;
  return out;
}

const DEFS_PREFIX = '#/$defs/';

/** `#/$defs/A~1b` → `A/b`; `undefined` for a reference elsewhere. Percent-encoded fragments are decoded. */
export function defsRefName(ref: string): string | undefined {
  if (!ref.startsWith(DEFS_PREFIX)) return undefined;
  let token = ref.slice(DEFS_PREFIX.length);
  if (token.includes('%')) {
    try {
      token = decodeURIComponent(token);
    } catch {
      // malformed percent-encoding: the text as it is
    }
  }
  return token.includes('~') ? token.replace(/~1/g, '/').replace(/~0/g, '~') : token;
}
