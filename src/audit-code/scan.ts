/**
 * One pass over a file's *compiler* nodes that keeps only the candidates the rules look at (key
 * sinks, tool registrations, SDK-shaped calls, interrupt() calls). ts-morph wraps a node lazily and
 * wrapping every node of a large bundle costs more than the rules themselves, so only these are
 * wrapped. The filters are name-based and cheap; the rules decide.
 */
import { type Node, ts, type SourceFile } from 'ts-morph';
import type { Heuristics } from '../classify/heuristics.js';
import { importedName } from './resolve.js';
import { SDK_REGISTRY } from './sdk-registry.js';
import { isKeyName } from './sinks.js';

export interface Candidates {
  /** Property assignments, `.set/.append` calls and assignments that may hand over a key. */
  sinks: Node[];
  /** Calls that may register a tool. */
  toolCalls: Node[];
  /** Calls and `new …Command` that may be an SDK write. */
  sdkCalls: Node[];
  /** Calls named `interrupt` (the rule checks where it comes from). */
  interrupts: Node[];
}

type Wrap = (n: ts.Node) => Node;

function wrapper(sf: SourceFile): Wrap {
  // ts-morph's own node cache, so wrapped nodes compare equal to those reached by navigation.
  const internal = (sf as unknown as { _getNodeFromCompilerNode?: (n: ts.Node) => Node })._getNodeFromCompilerNode;
  if (typeof internal === 'function') return (n) => internal.call(sf, n);
  return (n) => sf.getDescendantAtStartWithWidth(n.getStart(sf.compilerNode), n.getWidth(sf.compilerNode))!;
}

function nameText(n: ts.Node): string | undefined {
  if (ts.isIdentifier(n) || ts.isStringLiteralLike(n) || ts.isPrivateIdentifier(n)) return n.text;
  return undefined;
}

const SDK_METHODS = SDK_REGISTRY.map((e) => e.methods);

export function scanFile(sf: SourceFile, h: Heuristics): Candidates {
  const out: Candidates = { sinks: [], toolCalls: [], sdkCalls: [], interrupts: [] };
  const wrap = wrapper(sf);
  const names = (id: ts.Identifier) => [id.text, importedName(sf, id.text)];
  const visit = (n: ts.Node): void => {
    if (ts.isPropertyAssignment(n) || ts.isShorthandPropertyAssignment(n)) {
      const name = nameText(n.name);
      if (name && (name === 'key' || isKeyName(name, h))) out.sinks.push(wrap(n));
    } else if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const l = n.left;
      const name = ts.isElementAccessExpression(l)
        ? nameText(l.argumentExpression)
        : ts.isPropertyAccessExpression(l)
          ? l.name.text
          : undefined;
      if (name && isKeyName(name, h)) out.sinks.push(wrap(n));
    } else if (ts.isCallExpression(n)) {
      const callee = n.expression;
      if (ts.isPropertyAccessExpression(callee)) {
        const m = callee.name.text;
        if ((m === 'set' || m === 'append') && n.arguments.length >= 2) out.sinks.push(wrap(n));
        if (m === 'registerTool' || m === 'tool') out.toolCalls.push(wrap(n));
        if (SDK_METHODS.some((re) => re.test(m))) out.sdkCalls.push(wrap(n));
      } else if (ts.isIdentifier(callee)) {
        const ns = names(callee);
        if (ns.some((x) => x === 'tool' || x === 'createTool')) out.toolCalls.push(wrap(n));
        if (ns.includes('interrupt')) out.interrupts.push(wrap(n));
      }
    } else if (ts.isNewExpression(n)) {
      const text = n.expression.getText(sf.compilerNode);
      if (/Command$/.test(text)) out.sdkCalls.push(wrap(n));
      if (/^Dynamic(Structured)?Tool$/.test(text)) out.toolCalls.push(wrap(n));
    }
    ts.forEachChild(n, visit);
  };
  visit(sf.compilerNode);
  return out;
}
