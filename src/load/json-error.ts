/**
 * Offset of the first JSON syntax error (RFC 8259 grammar), for `invalid_json` line/col.
 * Only run after JSON.parse failed: V8's messages do not always include a position.
 * Iterative (explicit stack) so deeply nested input cannot overflow the call stack.
 */

const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;

function skipWs(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  return i;
}

/** End of a valid string starting at `i`, or the negative-encoded (-1 - offset) error offset. */
function scanString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const code = text.charCodeAt(j);
    if (code < 0x20) return -1 - j;
    if (text[j] === '"') return j + 1;
    if (text[j] === '\\') {
      const e = text[j + 1];
      if (e === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) return -1 - j;
        j += 5;
      } else if (e !== undefined && '"\\/bfnrt'.includes(e)) j++;
      else return -1 - j;
    }
  }
  return -1 - text.length;
}

/** End of the scalar starting at `i`, or -1 - errorOffset. */
function scanScalar(text: string, i: number): number {
  if (text[i] === '"') return scanString(text, i);
  for (const re of [NUMBER, LITERAL]) {
    re.lastIndex = i;
    if (re.test(text)) return re.lastIndex;
  }
  return -1 - i;
}

type Frame = '{' | '[';

export function findJsonErrorOffset(text: string): number {
  const stack: Frame[] = [];
  let i = skipWs(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  let expectValue = true;
  for (;;) {
    if (expectValue) {
      if (i >= text.length) return i;
      const c = text[i];
      if (c === '{' || c === '[') {
        stack.push(c);
        i = skipWs(text, i + 1);
        if (text[i] === (c === '{' ? '}' : ']')) {
          stack.pop();
          i++;
          expectValue = false;
        } else if (c === '{') {
          const k = readKeyColon(text, i);
          if (k < 0) return -1 - k;
          i = k;
        }
        continue;
      }
      const end = scanScalar(text, i);
      if (end < 0) return -1 - end;
      i = end;
      expectValue = false;
      continue;
    }
    i = skipWs(text, i);
    const top = stack[stack.length - 1];
    if (top === undefined) return i < text.length ? i : -1;
    if (text[i] === ',') {
      i = skipWs(text, i + 1);
      if (top === '{') {
        const k = readKeyColon(text, i);
        if (k < 0) return -1 - k;
        i = k;
      }
      expectValue = true;
    } else if (text[i] === (top === '{' ? '}' : ']')) {
      stack.pop();
      i++;
    } else return i;
  }
}

/** After `"key" :` (with whitespace), or -1 - errorOffset. */
function readKeyColon(text: string, i: number): number {
  if (text[i] !== '"') return -1 - i;
  const end = scanString(text, i);
  if (end < 0) return end;
  const j = skipWs(text, end);
  if (text[j] !== ':') return -1 - j;
  return skipWs(text, j + 1);
}
