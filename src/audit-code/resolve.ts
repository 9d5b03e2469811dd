/**
 * What a name in agent code refers to, as `{ module, path }`: `randomUUID` imported as `rid` from
 * `node:crypto` is `crypto` + `[randomUUID]`, `uuid.v4` is `uuid` + `[v4]`, `Date.now` is `global` +
 * `[Date, now]`. Import bindings are read syntactically (cheap); only a name imported from a *local*
 * module is followed through the type checker, which resolves re-exports such as
 * `export { randomUUID as makeId } from 'node:crypto'` across the audited files.
 */
import { Node, SyntaxKind, type Identifier, type SourceFile } from 'ts-morph';

export interface Ref {
  module: string;
  path: string[];
}

type Binding = Ref | 'local';

const cache = new WeakMap<SourceFile, Map<string, Binding>>();

function normalize(module: string): string {
  return module.startsWith('node:') ? module.slice(5) : module;
}

function requireModule(init: Node | undefined): string | undefined {
  let e = init;
  if (e && Node.isAwaitExpression(e)) e = e.getExpression();
  if (!e || !Node.isCallExpression(e)) return undefined;
  const callee = e.getExpression();
  const arg = e.getArguments()[0];
  const isRequire =
    (Node.isIdentifier(callee) && callee.getText() === 'require') || callee.getKind() === SyntaxKind.ImportKeyword;
  return isRequire && arg && Node.isStringLiteral(arg) ? normalize(arg.getLiteralValue()) : undefined;
}

function fileBindings(file: SourceFile): Map<string, Binding> {
  const hit = cache.get(file);
  if (hit) return hit;
  const map = new Map<string, Binding>();
  for (const imp of file.getImportDeclarations()) {
    const module = normalize(imp.getModuleSpecifierValue());
    const def = imp.getDefaultImport();
    if (def) map.set(def.getText(), { module, path: ['default'] });
    const ns = imp.getNamespaceImport();
    if (ns) map.set(ns.getText(), { module, path: [] });
    for (const named of imp.getNamedImports()) {
      map.set((named.getAliasNode() ?? named.getNameNode()).getText(), {
        module,
        path: [named.getNameNode().getText()],
      });
    }
  }
  for (const decl of file.getDescendantsOfKind(SyntaxKind.VariableDeclaration)) {
    const init = decl.getInitializer();
    const name = decl.getNameNode();
    let module = requireModule(init);
    let prefix: string[] = [];
    if (!module && init && Node.isPropertyAccessExpression(init)) {
      module = requireModule(init.getExpression());
      prefix = [init.getName()];
    }
    if (module === undefined) {
      if (Node.isIdentifier(name) && !map.has(name.getText())) map.set(name.getText(), 'local');
      continue;
    }
    if (Node.isIdentifier(name)) map.set(name.getText(), { module, path: prefix });
    else if (Node.isObjectBindingPattern(name)) {
      for (const el of name.getElements())
        map.set(el.getNameNode().getText(), {
          module,
          path: [...prefix, (el.getPropertyNameNode() ?? el.getNameNode()).getText()],
        });
    }
  }
  for (const fn of file.getDescendantsOfKind(SyntaxKind.FunctionDeclaration)) {
    const n = fn.getName();
    if (n && !map.has(n)) map.set(n, 'local');
  }
  cache.set(file, map);
  return map;
}

/** Follows a name imported from a local file through re-exports (the only use of the checker). */
function throughChecker(id: Identifier): Ref | undefined {
  try {
    return followAliases(id);
  } catch {
    // The checker asserts on some malformed or exotic inputs; an unresolved name is just unknown.
    return undefined;
  }
}

function followAliases(id: Identifier): Ref | undefined {
  let symbol = id.getSymbol();
  for (let hop = 0; symbol && hop < 8; hop++) {
    for (const decl of symbol.getDeclarations()) {
      if (Node.isExportSpecifier(decl) || Node.isImportSpecifier(decl)) {
        const owner = Node.isExportSpecifier(decl) ? decl.getExportDeclaration() : decl.getImportDeclaration();
        const spec = owner.getModuleSpecifierValue();
        if (spec && !spec.startsWith('.')) return { module: normalize(spec), path: [decl.getNameNode().getText()] };
      }
    }
    if (!symbol.isAlias()) break;
    symbol = symbol.getImmediatelyAliasedSymbol();
  }
  return undefined;
}

/** The name a local was imported as (syntactic only, no checker): `rid` → `randomUUID`. */
export function importedName(file: SourceFile, local: string): string | undefined {
  const b = fileBindings(file).get(local);
  return b === undefined || b === 'local' ? undefined : b.path[b.path.length - 1];
}

/**
 * `useChecker`: follow names imported from local files through re-exports. Only the key-origin trace
 * asks for it; everything else is answered from import syntax alone, so most audits never build a checker.
 */
export function refOf(expr: Node, useChecker = false): Ref | undefined {
  if (Node.isParenthesizedExpression(expr) || Node.isNonNullExpression(expr) || Node.isAsExpression(expr))
    return refOf(expr.getExpression(), useChecker);
  if (Node.isPropertyAccessExpression(expr)) {
    const base = refOf(expr.getExpression(), useChecker);
    return base ? { module: base.module, path: [...base.path, expr.getName()] } : undefined;
  }
  if (!Node.isIdentifier(expr)) return undefined;
  const name = expr.getText();
  const binding = fileBindings(expr.getSourceFile()).get(name);
  if (binding === 'local') return undefined;
  if (binding === undefined) return isShadowedByParameter(expr) ? undefined : { module: 'global', path: [name] };
  if (binding.module.startsWith('.') && useChecker) return throughChecker(expr) ?? binding;
  return binding;
}

function isShadowedByParameter(id: Identifier): boolean {
  const name = id.getText();
  for (let n: Node | undefined = id.getParent(); n; n = n.getParent()) {
    if (Node.isFunctionLikeDeclaration(n) || Node.isArrowFunction(n) || Node.isFunctionExpression(n)) {
      for (const p of n.getParameters()) {
        const pn = p.getNameNode();
        if (
          pn.getText() === name ||
          (!Node.isIdentifier(pn) && pn.getDescendantsOfKind(SyntaxKind.Identifier).some((i) => i.getText() === name))
        )
          return true;
      }
    }
  }
  return false;
}

/** Matches `module#a.b` / `global a.b` against a list of `module:a.b` patterns. */
export function refIs(ref: Ref | undefined, patterns: readonly string[]): boolean {
  if (!ref) return false;
  const text = `${ref.module}:${ref.path.join('.')}`;
  return patterns.includes(text);
}
