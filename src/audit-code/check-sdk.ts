/** sdk_write_without_key: a registered SDK write (or AWS token command) called without its key. */
import { Node } from 'ts-morph';
import type { Heuristics } from '../classify/heuristics.js';
import { isKeyName } from './sinks.js';
import { deref } from './sites.js';
import { writeCall } from './writes.js';
import type { Emit } from './emit.js';

type Seen = 'key' | 'none' | 'opaque';

/** Does an argument carry the key at its top level? Conditionals are judged branch by branch. */
function carries(arg: Node | undefined, names: readonly string[], h: Heuristics): Seen {
  const n = deref(arg);
  if (!n || Node.isNullLiteral(n) || n.getText() === 'undefined') return 'none';
  if (Node.isConditionalExpression(n)) {
    const both = [carries(n.getWhenTrue(), names, h), carries(n.getWhenFalse(), names, h)];
    return both.includes('opaque') ? 'opaque' : both.includes('none') ? 'none' : 'key';
  }
  if (!Node.isObjectLiteralExpression(n))
    return Node.isStringLiteral(n) || Node.isNumericLiteral(n) ? 'none' : 'opaque';
  let spread = false;
  for (const p of n.getProperties()) {
    if (Node.isSpreadAssignment(p)) spread = true;
    else if (
      (Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p)) &&
      (names.includes(p.getName().replace(/^['"]|['"]$/g, '')) || isKeyName(p.getName().replace(/^['"]|['"]$/g, ''), h))
    )
      return 'key';
  }
  return spread ? 'opaque' : 'none';
}

export function checkSdk(candidates: readonly Node[], h: Heuristics, emit: Emit): void {
  for (const call of candidates) {
    if (!Node.isCallExpression(call) && !Node.isNewExpression(call)) continue;
    const w = writeCall(call, h);
    if (!w || (!w.sdk && !w.awsToken)) continue;
    const args = call.getArguments();
    if (w.awsToken) {
      if (carries(args[0], [w.awsToken], h) === 'none') {
        emit(
          'sdk_write_without_key',
          call,
          `${w.label} is sent without ${w.awsToken}: the SDK fills in a fresh token per call, so a retried intent is not deduplicated`,
          `set ${w.awsToken} from a key persisted per intent`,
        );
      }
      continue;
    }
    const sdk = w.sdk!;
    // Stripe's first argument is the params (or the id); its key travels in the options after it.
    const judged = sdk.sdk === 'Stripe' ? args.slice(1) : args;
    const seen = judged.map((a) => carries(a, sdk.keyNames, h));
    if (seen.includes('key') || seen.includes('opaque')) continue;
    emit(
      'sdk_write_without_key',
      call,
      `${w.label} is called without ${sdk.keyNames[0]}: a retry after a timeout repeats the write`,
      sdk.hint,
    );
  }
}
