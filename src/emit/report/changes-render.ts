/**
 * The baseline comparison as text (the terminal) and Markdown (a CI step summary or a PR comment: one
 * summary table, each group folded in a `<details>` with its operations).
 */
import { mdCode, mdText, terminalText } from '../../escape/index.js';
import {
  CHANGE_KINDS,
  CHANGE_TITLES,
  changesOf,
  transitionText,
  type AuditChanges,
  type ChangeKind,
} from './changes.js';

/** Operations a group lists before it says "and N more" (Markdown; `--verbose` text lists all). */
const SHOWN = 200;

function headline(c: AuditChanges): string {
  const total = c.changes.length;
  const ops = `${c.operations.before} → ${c.operations.after} operations`;
  const reads = c.operations.addedReads > 0 ? `, ${c.operations.addedReads} new reads` : '';
  return total === 0
    ? `no retry-relevant change (${ops}${reads})`
    : `${total} operations changed for retry safety (${ops}${reads})`;
}

export function renderChangesText(c: AuditChanges, opts: { verbose?: boolean } = {}): string[] {
  const lines = [`changes since ${terminalText(c.baseline)}: ${headline(c)}`];
  for (const kind of CHANGE_KINDS) {
    const list = changesOf(c, kind);
    if (list.length === 0) continue;
    lines.push(`  ${kind} (${list.length}): ${CHANGE_TITLES[kind]}`);
    const shown = opts.verbose ? list : list.slice(0, 20);
    const width = Math.max(...shown.map((x) => terminalText(x.key).length));
    for (const x of shown) lines.push(`    ${terminalText(x.key).padEnd(width)}  ${terminalText(transitionText(x))}`);
    if (shown.length < list.length) lines.push(`    … and ${list.length - shown.length} more (--verbose lists each)`);
  }
  return lines;
}

/** `fail-closed 2 · lost-key 1`: the counts a failing `--fail-on-change` names. */
export function countsText(tripped: readonly [ChangeKind, number][]): string {
  return tripped.map(([k, n]) => `${k} ${n}`).join(', ');
}

export function renderChangesMarkdown(c: AuditChanges): string {
  const out = [
    `## Changes since ${mdCode(c.baseline)}`,
    '',
    `${mdText(headline(c))}.`,
    '',
    '| change | operations | what it means |',
    '|---|---:|---|',
    ...CHANGE_KINDS.map((k) => `| ${mdCode(k)} | ${c.counts[k]} | ${mdText(CHANGE_TITLES[k])} |`),
  ];
  for (const kind of CHANGE_KINDS) {
    const list = changesOf(c, kind);
    if (list.length === 0) continue;
    out.push(
      '',
      `<details><summary>${mdText(kind)}: ${list.length} — ${mdText(CHANGE_TITLES[kind])}</summary>`,
      '',
      '| operation | before → after |',
      '|---|---|',
      ...list.slice(0, SHOWN).map((x) => `| ${mdCode(x.key)} | ${mdText(transitionText(x))} |`),
    );
    if (list.length > SHOWN) out.push('', `… and ${list.length - SHOWN} more (the JSON report lists each).`);
    out.push('', '</details>');
  }
  return `${out.join('\n')}\n`;
}
