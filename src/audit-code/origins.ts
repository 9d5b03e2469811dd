/**
 * Traces what a key expression is made of, within its function: through locals, destructuring,
 * object literals, templates, `??`/`||`, awaits and wrapper calls (`String(x)`, `hash(x)`). The
 * result says whether any part is random, clock-derived, a tool-call id, or read from a parameter
 * (arguments / graph state) — the only acceptable home of a key.
 */
import { Node, SyntaxKind, type Identifier } from 'ts-morph';
import { refIs, refOf } from './resolve.js';
import { RANDOM_SOURCES, TIME_SOURCES, TOOL_CALL_ID_NAMES, TOOL_CALL_OBJECT } from './sources.js';

type OriginKind = 'random' | 'time' | 'toolCallId' | 'param' | 'literal' | 'unknown';

export interface Origin {
  kind: OriginKind;
  node: Node;
  /** For `param`: the function whose parameter it is. */
  fn?: Node;
  /** The project helper the origin was found in (`makeKey` for `Math.random()` inside it). */
  via?: string;
}

const MAX_DEPTH = 12;

export function isFunctionNode(n: Node): boolean {
  return (
    Node.isArrowFunction(n) ||
    Node.isFunctionExpression(n) ||
    Node.isFunctionDeclaration(n) ||
    Node.isMethodDeclaration(n)
  );
}

/** The declaration of a local name as seen from `at`: a parameter, a variable, or a binding element. */
export function findLocal(id: Identifier): Node | undefined {
  const name = id.getText();
  for (let scope: Node | undefined = id.getParent(); scope; scope = scope.getParent()) {
    if (isFunctionNode(scope)) {
      for (const p of (scope as unknown as { getParameters(): Node[] }).getParameters()) {
        const found = bindingIn(p, name);
        if (found) return found;
      }
    }
    if (Node.isBlock(scope) || Node.isSourceFile(scope) || Node.isCaseClause(scope) || Node.isModuleBlock(scope)) {
      for (const st of scope.getStatements()) {
        if (Node.isVariableStatement(st)) {
          for (const d of st.getDeclarations()) {
            const found = bindingIn(d, name);
            if (found) return found;
          }
        }
      }
    }
    if (Node.isForOfStatement(scope) || Node.isForInStatement(scope)) {
      const init = scope.getInitializer();
      if (Node.isVariableDeclarationList(init))
        for (const d of init.getDeclarations()) if (bindingIn(d, name)) return d;
    }
  }
  return undefined;
}

function bindingIn(decl: Node, name: string): Node | undefined {
  const nameNode = (decl as unknown as { getNameNode(): Node }).getNameNode();
  if (Node.isIdentifier(nameNode)) return nameNode.getText() === name ? decl : undefined;
  for (const el of nameNode.getDescendantsOfKind(SyntaxKind.BindingElement)) {
    if (el.getNameNode().getText() === name) return el;
  }
  return undefined;
}

export function originsOf(expr: Node | undefined, depth = 0, seen = new Set<Node>()): Origin[] {
  if (!expr || depth > MAX_DEPTH || seen.has(expr)) return [];
  seen.add(expr);
  const next = (e: Node | undefined): Origin[] => originsOf(e, depth + 1, seen);
  if (
    Node.isParenthesizedExpression(expr) ||
    Node.isAsExpression(expr) ||
    Node.isNonNullExpression(expr) ||
    Node.isAwaitExpression(expr) ||
    Node.isSatisfiesExpression(expr)
  ) {
    return next(expr.getExpression());
  }
  if (Node.isStringLiteral(expr) || Node.isNoSubstitutionTemplateLiteral(expr) || Node.isNumericLiteral(expr))
    return [{ kind: 'literal', node: expr }];
  if (Node.isTemplateExpression(expr)) return expr.getTemplateSpans().flatMap((s) => next(s.getExpression()));
  if (Node.isBinaryExpression(expr)) return [...next(expr.getLeft()), ...next(expr.getRight())];
  if (Node.isConditionalExpression(expr)) return [...next(expr.getWhenTrue()), ...next(expr.getWhenFalse())];
  if (Node.isNewExpression(expr)) {
    const args = expr.getArguments();
    if (refIs(refOf(expr.getExpression()), ['global:Date']) && args.length === 0) return [{ kind: 'time', node: expr }];
    return args.flatMap((a) => next(a));
  }
  if (Node.isCallExpression(expr)) return callOrigins(expr, next);
  if (Node.isPropertyAccessExpression(expr) || Node.isElementAccessExpression(expr)) return accessOrigins(expr, next);
  if (Node.isIdentifier(expr)) return identifierOrigins(expr, next);
  if (Node.isObjectLiteralExpression(expr) || Node.isArrayLiteralExpression(expr)) {
    return expr
      .getDescendants()
      .filter(
        (d) =>
          Node.isExpression(d) &&
          d.getParent() &&
          (Node.isPropertyAssignment(d.getParent()!) || Node.isArrayLiteralExpression(d.getParent()!)),
      )
      .flatMap((d) => next(d));
  }
  return [{ kind: 'unknown', node: expr }];
}

function callOrigins(
  call: Node & { getExpression(): Node; getArguments(): Node[] },
  next: (e: Node | undefined) => Origin[],
): Origin[] {
  const callee = call.getExpression();
  const ref = refOf(callee, true);
  if (refIs(ref, RANDOM_SOURCES)) return [{ kind: 'random', node: call }];
  if (refIs(ref, TIME_SOURCES)) return [{ kind: 'time', node: call }];
  // A wrapper (String(x), x.toString(), hash(x), createHash().update(x).digest()) carries its inputs.
  const parts = call.getArguments().flatMap((a) => next(a));
  // A helper of the project (`makeKey()`, `import { mintKey } from './keys.js'`): what it returns,
  // apart from its own parameters (those are the arguments, already traced above).
  const helper = Node.isIdentifier(callee) ? projectFunction(callee) : undefined;
  if (helper) {
    const minted = returnedExpressions(helper)
      .flatMap((r) => next(r))
      .filter((o) => !(o.kind === 'param' && o.fn === helper))
      .map((o) => (o.via ? o : { ...o, via: callee.getText() }));
    parts.push(...minted);
  }
  if (Node.isPropertyAccessExpression(callee)) parts.push(...next(callee.getExpression()));
  return parts.length > 0 ? parts : [{ kind: 'unknown', node: call }];
}

function accessOrigins(expr: Node, next: (e: Node | undefined) => Origin[]): Origin[] {
  const name = Node.isPropertyAccessExpression(expr) ? expr.getName() : undefined;
  const object = (expr as unknown as { getExpression(): Node }).getExpression();
  if (name && TOOL_CALL_ID_NAMES.has(name)) return [{ kind: 'toolCallId', node: expr }];
  if (name && /^(id|callId|call_id)$/.test(name) && TOOL_CALL_OBJECT.test(lastName(object)))
    return [{ kind: 'toolCallId', node: expr }];
  // `opts.key` where `opts` is a local object literal: follow that property only.
  if (name && Node.isIdentifier(object)) {
    const decl = findLocal(object);
    const init = decl && Node.isVariableDeclaration(decl) ? decl.getInitializer() : undefined;
    if (init && Node.isObjectLiteralExpression(init)) {
      const prop = init.getProperty(name);
      if (prop && Node.isPropertyAssignment(prop)) return next(prop.getInitializer());
      if (prop && Node.isShorthandPropertyAssignment(prop)) return next(prop.getNameNode());
    }
  }
  return next(object);
}

function lastName(n: Node): string {
  if (Node.isPropertyAccessExpression(n)) return n.getName();
  if (Node.isNonNullExpression(n) || Node.isParenthesizedExpression(n)) return lastName(n.getExpression());
  return Node.isIdentifier(n) ? n.getText() : '';
}

function identifierOrigins(id: Identifier, next: (e: Node | undefined) => Origin[]): Origin[] {
  if (TOOL_CALL_ID_NAMES.has(id.getText())) return [{ kind: 'toolCallId', node: id }];
  const decl = findLocal(id);
  if (!decl) {
    const ref = refOf(id, true);
    if (refIs(ref, RANDOM_SOURCES)) return [{ kind: 'random', node: id }];
    return [{ kind: 'unknown', node: id }];
  }
  if (Node.isParameterDeclaration(decl)) return [{ kind: 'param', node: id, fn: decl.getParent() }];
  if (Node.isVariableDeclaration(decl)) return next(decl.getInitializer());
  if (Node.isBindingElement(decl)) {
    // Destructured: from a parameter (`({ key }) =>`) or from a local's initializer.
    let top: Node = decl;
    while (Node.isBindingElement(top) || Node.isObjectBindingPattern(top) || Node.isArrayBindingPattern(top))
      top = top.getParentOrThrow();
    if (Node.isParameterDeclaration(top)) return [{ kind: 'param', node: id, fn: top.getParent() }];
    if (Node.isVariableDeclaration(top)) {
      const init = top.getInitializer();
      const prop = (decl.getPropertyNameNode() ?? decl.getNameNode()).getText();
      if (init && Node.isObjectLiteralExpression(init)) {
        const p = init.getProperty(prop);
        if (p && Node.isPropertyAssignment(p)) return next(p.getInitializer());
      }
      return next(init);
    }
  }
  return [{ kind: 'unknown', node: id }];
}

/** The function a called name refers to, when it is declared in the audited files (locally or imported from one). */
export function projectFunction(callee: Identifier): Node | undefined {
  const local = findLocal(callee);
  const fromLocal = local && Node.isVariableDeclaration(local) ? local.getInitializer() : undefined;
  if (fromLocal) return isFunctionNode(fromLocal) ? fromLocal : undefined;
  if (local) return undefined;
  const own = callee.getSourceFile().getFunction(callee.getText());
  if (own) return own;
  const ref = refOf(callee);
  if (!ref?.module.startsWith('.')) return undefined;
  try {
    let symbol = callee.getSymbol();
    for (let hop = 0; symbol?.isAlias() && hop < 8; hop++) symbol = symbol.getImmediatelyAliasedSymbol();
    for (const decl of symbol?.getDeclarations() ?? []) {
      if (isFunctionNode(decl)) return decl;
      if (Node.isVariableDeclaration(decl)) {
        const init = decl.getInitializer();
        if (init && isFunctionNode(init)) return init;
      }
    }
  } catch {
    // The checker asserts on some malformed inputs; an unresolved helper is just not followed.
  }
  return undefined;
}

/** The expressions a function returns (an arrow's expression body, or its own return statements). */
function returnedExpressions(fn: Node): Node[] {
  if (Node.isArrowFunction(fn)) {
    const body = fn.getBody();
    if (!Node.isBlock(body)) return [body];
  }
  return fn
    .getDescendantsOfKind(SyntaxKind.ReturnStatement)
    .filter((r) => r.getFirstAncestor((a) => isFunctionNode(a)) === fn)
    .flatMap((r) => {
      const e = r.getExpression();
      return e ? [e] : [];
    });
}
