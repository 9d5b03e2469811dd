/** Spec text → a SQL `--` comment: one line of printable ASCII, so no input can end the comment or hide text. */
export function sqlComment(text: string): string {
  return String(text).replace(/[^\x20-\x7e]/g, '?');
}
