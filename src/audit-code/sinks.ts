/**
 * Places where agent code hands an idempotency key to something: an `Idempotency-Key`-style header
 * (object literal, `headers.set`, `headers[...] =`), an SDK option or body field named like a key
 * (`idempotencyKey`, `idempotency_key`, `ClientToken`, `paypalRequestId` …, the classifier's own
 * lists), and a generated idemgen client's `{ key }` option (an object passed after the first argument
 * of a method call).
 */
import { Node, SyntaxKind } from 'ts-morph';
import { isKeyField, isKeyHeader, type Heuristics } from '../classify/heuristics.js';

export interface KeySink {
  /** Where to report. */
  node: Node;
  name: string;
  value: Node;
}

const EXTRA_KEY_NAMES = new Set(['paypalRequestId', 'PayPal-Request-Id']);

function propName(n: Node): string | undefined {
  if (Node.isIdentifier(n) || Node.isPrivateIdentifier(n)) return n.getText();
  if (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n)) return n.getLiteralValue();
  return undefined;
}

export function isKeyName(name: string, h: Heuristics): boolean {
  return EXTRA_KEY_NAMES.has(name) || isKeyField(name, h) || isKeyHeader(name, h);
}

/** `{ key }` in `client.createCharge(body, { key })`: the generated client's per-call option. */
function isClientOptions(obj: Node): boolean {
  const call = obj.getParent();
  if (!call || !Node.isCallExpression(call) || !Node.isPropertyAccessExpression(call.getExpression())) return false;
  return call.getArguments().indexOf(obj) >= 1;
}

function sinkOfProperty(p: Node, h: Heuristics): KeySink | undefined {
  if (Node.isPropertyAssignment(p)) {
    const name = propName(p.getNameNode());
    const value = p.getInitializer();
    if (!name || !value) return undefined;
    if (isKeyName(name, h) || (name === 'key' && isClientOptions(p.getParentOrThrow())))
      return { node: p, name, value };
  }
  if (Node.isShorthandPropertyAssignment(p)) {
    const name = p.getName();
    if (isKeyName(name, h) || (name === 'key' && isClientOptions(p.getParentOrThrow())))
      return { node: p, name, value: p.getNameNode() };
  }
  return undefined;
}

/** The key sink at `n`, if `n` is one. */
export function sinkAt(n: Node, h: Heuristics): KeySink | undefined {
  if (Node.isPropertyAssignment(n) || Node.isShorthandPropertyAssignment(n)) return sinkOfProperty(n, h);
  if (Node.isCallExpression(n)) {
    const callee = n.getExpression();
    const [first, second] = n.getArguments();
    if (Node.isPropertyAccessExpression(callee) && /^(set|append)$/.test(callee.getName()) && first && second) {
      const name = propName(first);
      if (name && isKeyHeader(name, h)) return { node: n, name, value: second };
    }
    return undefined;
  }
  if (Node.isBinaryExpression(n) && n.getOperatorToken().getKind() === SyntaxKind.EqualsToken) {
    const left = n.getLeft();
    const name = Node.isElementAccessExpression(left)
      ? propName(left.getArgumentExpressionOrThrow())
      : Node.isPropertyAccessExpression(left)
        ? left.getName()
        : undefined;
    if (name && isKeyName(name, h)) return { node: n, name, value: n.getRight() };
  }
  return undefined;
}

/** Every key sink inside `root` (a call and its arguments; small subtrees only). */
export function keySinks(root: Node, h: Heuristics): KeySink[] {
  const out: KeySink[] = [];
  for (const n of [root, ...root.getDescendants()]) {
    const s = sinkAt(n, h);
    if (s) out.push(s);
  }
  return out;
}
