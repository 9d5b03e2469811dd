/**
 * What a crashed server said, in one bounded line for its `mcp_server_failed` diagnostic. Only the tail
 * was kept once, and a Node start-up crash ends in a stack, `code: 'MODULE_NOT_FOUND'` and the Node
 * version, so the line that explains it ("Error: Cannot find module …") was lost. The collector keeps the
 * first and the last 4 KB; the digest is the first lines that read like an error, then the last lines,
 * without stack frames, each line cut at 200 characters and escaped for the terminal.
 */
import { terminalText } from '../escape/index.js';

const KEEP = 4096;
const ERROR_LINE = /\b(error|cannot|can't|failed|failure|fatal|exception|denied|not found|missing|invalid|refused)\b/i;
const NOISE = /^(at\s|\^+$|throw\s)/;

export interface StderrCollector {
  add(chunk: string): void;
  digest(): string;
}

export function collectStderr(): StderrCollector {
  let head = '';
  let tail = '';
  let total = 0;
  return {
    add(chunk) {
      total += chunk.length;
      if (head.length < KEEP) head += chunk.slice(0, KEEP - head.length);
      tail = (tail + chunk).slice(-KEEP);
    },
    digest() {
      const text = total <= KEEP ? head : `${head}\n…\n${tail}`;
      return stderrDigest(text);
    },
  };
}

/** The first two error-like lines and the last three lines, in order, without repeats or stack frames. */
export function stderrDigest(text: string): string {
  const lines = text
    .split(/\r\n|\n|\r/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !NOISE.test(l));
  const firstErrors = lines.filter((l) => ERROR_LINE.test(l)).slice(0, 2);
  const last = lines.slice(-3);
  const picked: string[] = [];
  for (const l of [...firstErrors, ...last]) if (!picked.includes(l)) picked.push(l);
  // Keep the lines in the order the server wrote them.
  picked.sort((a, b) => lines.indexOf(a) - lines.indexOf(b));
  return picked.map((l) => terminalText(l.length > 200 ? `${l.slice(0, 200)}…` : l)).join(' | ');
}
