/** The pre-index pointer scanner (one forward scan per lookup), kept as the oracle for JsonLocator. */
const WS = new Set([' ', '\t', '\n', '\r']);

function skipWs(text: string, i: number): number {
  while (i < text.length && WS.has(text[i])) i++;
  return i;
}

/** Index just after the closing quote of the string starting at `i`, or -1. */
function skipString(text: string, i: number): number {
  for (let j = i + 1; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') j++;
    else if (c === '"') return j + 1;
  }
  return -1;
}

function skipValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c !== '{' && c !== '[') {
    let j = i;
    while (j < text.length && !WS.has(text[j]) && text[j] !== ',' && text[j] !== '}' && text[j] !== ']') j++;
    return j;
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const d = text[j];
    if (d === '"') {
      j = skipString(text, j) - 1;
      if (j < 0) return -1;
    } else if (d === '{' || d === '[') depth++;
    else if (d === '}' || d === ']') {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}

function readKey(text: string, i: number): { key: string; end: number } | undefined {
  const end = skipString(text, i);
  if (end < 0) return undefined;
  const raw = text.slice(i + 1, end - 1);
  if (!raw.includes('\\')) return { key: raw, end };
  try {
    return { key: JSON.parse(text.slice(i, end)) as string, end };
  } catch {
    return undefined;
  }
}

/** Offset of the member key (objects) or value (arrays) for the deepest matching prefix of `segments`. */
export function referenceLocate(text: string, segments: readonly string[]): number | undefined {
  let i = skipWs(text, text.charCodeAt(0) === 0xfeff ? 1 : 0);
  let found: number | undefined = i < text.length ? i : undefined;
  for (const seg of segments) {
    const next = text[i] === '{' ? findMember(text, i, seg) : text[i] === '[' ? findItem(text, i, seg) : undefined;
    if (!next) return found;
    found = next.at;
    i = next.value;
  }
  return found;
}

function findMember(text: string, i: number, seg: string): { at: number; value: number } | undefined {
  i = skipWs(text, i + 1);
  while (i < text.length && text[i] === '"') {
    const k = readKey(text, i);
    if (!k) return undefined;
    let j = skipWs(text, k.end);
    if (text[j] !== ':') return undefined;
    j = skipWs(text, j + 1);
    if (k.key === seg) return { at: i, value: j };
    const end = skipValue(text, j);
    if (end < 0) return undefined;
    i = skipWs(text, end);
    if (text[i] !== ',') return undefined;
    i = skipWs(text, i + 1);
  }
  return undefined;
}

function findItem(text: string, i: number, seg: string): { at: number; value: number } | undefined {
  if (!/^(0|[1-9]\d*)$/.test(seg)) return undefined;
  const target = Number(seg);
  i = skipWs(text, i + 1);
  for (let n = 0; i < text.length && text[i] !== ']'; n++) {
    if (n === target) return { at: i, value: i };
    const end = skipValue(text, i);
    if (end < 0) return undefined;
    i = skipWs(text, end);
    if (text[i] !== ',') return undefined;
    i = skipWs(text, i + 1);
  }
  return undefined;
}
