/** The trace audit as text (for people) or JSON (for scripts). */
import type { TraceAudit } from './duplicates.js';

export function renderTraceAudit(audit: TraceAudit, file: string): string {
  const lines = [
    `${file}: ${audit.calls} tool call(s)${audit.uncomparable ? `, ${audit.uncomparable} without arguments (not compared)` : ''}`,
  ];
  const same = audit.groups.filter((g) => g.kind === 'same-turn');
  const cross = audit.groups.filter((g) => g.kind === 'cross-turn');
  lines.push(`Same (tool, arguments) more than once in a turn (a repeat a key would stop): ${same.length}`);
  lines.push(
    `Same (tool, arguments) in another turn within the window (maybe a new intent, docs/concepts.md#repeated-intent): ${cross.length}`,
  );
  for (const g of audit.groups) {
    const where =
      g.kind === 'same-turn'
        ? `turn ${g.turns[0]}`
        : `turns ${g.turns.join(', ')} (max gap ${Math.round((g.gapMs ?? 0) / 1000)} s)`;
    const verdict = g.reachedApi > 1 ? `REACHED THE API ${g.reachedApi}×` : 'absorbed';
    lines.push(
      `  ${g.kind}  ${g.tool}  conversation ${g.conversation}  ${where}: ${g.calls.length} calls, ${g.absorbedCount} absorbed, ${verdict}`,
    );
    for (const c of g.calls) {
      lines.push(
        `      ${new Date(c.time).toISOString()}  ${c.at}  ${c.outcome ?? 'no idemgen runtime'}  ${c.absorbed ? 'absorbed (replay, nothing sent)' : 'reached the API'}`,
      );
    }
  }
  const unabsorbed = audit.groups.filter((g) => g.reachedApi > 1).length;
  lines.push(
    unabsorbed === 0
      ? 'Every repeat was absorbed.'
      : `${unabsorbed} group(s) reached the API more than once: possible duplicate side effects.`,
  );
  return lines.join('\n');
}
