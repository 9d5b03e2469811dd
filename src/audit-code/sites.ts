/**
 * Tool registrations in agent code, framework by framework (data in FRAMEWORKS below):
 *  - MCP `server.registerTool(name, { inputSchema, annotations }, handler)` and `server.tool(name, …, handler)`;
 *  - AI SDK `tool({ inputSchema | parameters, execute })` (name: the property or variable holding it);
 *  - `@openai/agents` `tool({ name, parameters, execute })`; Mastra `createTool({ id, inputSchema, execute })`;
 *  - LangChain `tool(fn, { name, schema })` and `new DynamicStructuredTool({ name, schema, func })`.
 */
import { Node, type CallExpression, type NewExpression, type ObjectLiteralExpression } from 'ts-morph';
import { findLocal, isFunctionNode } from './origins.js';
import { refOf } from './resolve.js';

export interface ToolSite {
  framework: 'mcp' | 'ai-sdk' | 'openai-agents' | 'langchain' | 'mastra';
  name?: string;
  /** The tool's description (or MCP title), when static: read for verbs like the name. */
  description?: string;
  /** Where findings about the registration point. */
  node: Node;
  handler?: Node;
  /** zod raw shape, z.object(...), JSON Schema literal; undefined when the tool takes no input. */
  schema?: Node;
  /** True when a schema argument exists but cannot be read statically. */
  schemaOpaque: boolean;
  annotations?: ObjectLiteralExpression;
}

/** A string from a literal, a `const` with a literal initializer, or an enum/object member. */
export function staticString(n: Node | undefined, depth = 0): string | undefined {
  if (!n || depth > 4) return undefined;
  if (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n)) return n.getLiteralValue();
  if (Node.isIdentifier(n)) {
    const d = findLocal(n);
    return d && Node.isVariableDeclaration(d) ? staticString(d.getInitializer(), depth + 1) : undefined;
  }
  if (Node.isPropertyAccessExpression(n) && Node.isIdentifier(n.getExpression())) {
    const decl = n.getSourceFile().getEnum(n.getExpression().getText())?.getMember(n.getName());
    if (decl) return staticString(decl.getInitializer(), depth + 1);
  }
  return undefined;
}

/** Follows an identifier to a local object literal / function; otherwise the node itself. */
export function deref(n: Node | undefined): Node | undefined {
  if (n && Node.isIdentifier(n)) {
    const d = findLocal(n);
    if (d && Node.isVariableDeclaration(d) && d.getInitializer()) return d.getInitializer();
    const fn = n.getSourceFile().getFunction(n.getText());
    if (fn) return fn;
  }
  return n;
}

function prop(obj: ObjectLiteralExpression, name: string): Node | undefined {
  const p = obj.getProperty(name);
  if (p && Node.isPropertyAssignment(p)) return p.getInitializer();
  if (p && Node.isShorthandPropertyAssignment(p)) return deref(p.getNameNode());
  if (p && Node.isMethodDeclaration(p)) return p;
  return undefined;
}

function asObject(n: Node | undefined): ObjectLiteralExpression | undefined {
  const d = deref(n);
  return d && Node.isObjectLiteralExpression(d) ? d : undefined;
}

/** `{ sendEmail: tool(...) }` / `const sendEmail = tool(...)` / `export const x = tool(...)`. */
function holderName(call: Node): string | undefined {
  const parent = call.getParent();
  if (parent && Node.isPropertyAssignment(parent)) return staticString(parent.getNameNode()) ?? parent.getName();
  if (parent && Node.isVariableDeclaration(parent)) return parent.getName();
  return undefined;
}

function schemaOf(raw: Node | undefined): { schema?: Node; schemaOpaque: boolean } {
  if (!raw) return { schemaOpaque: false };
  const d = deref(raw);
  return { schema: d, schemaOpaque: !d || Node.isIdentifier(d) };
}

const HINT_KEYS = /Hint$/;

function mcpSite(call: CallExpression, method: string): ToolSite | undefined {
  const args = call.getArguments();
  const name = staticString(args[0]);
  const handler = deref(args[args.length - 1]);
  if (args.length < 2 || !handler || !isFunctionNode(handler)) return undefined;
  if (method === 'registerTool') {
    const config = asObject(args[1]);
    const annotations = config ? asObject(prop(config, 'annotations')) : undefined;
    return {
      framework: 'mcp',
      name,
      description: config
        ? (staticString(prop(config, 'description')) ?? staticString(prop(config, 'title')))
        : undefined,
      node: args[0],
      handler,
      annotations,
      ...schemaOf(config ? prop(config, 'inputSchema') : undefined),
      schemaOpaque: !config,
    };
  }
  // server.tool(name, description?, paramsSchema?, annotations?, cb)
  const objects = args
    .slice(1, -1)
    .filter((a) => !Node.isStringLiteral(a))
    .map((a) => asObject(a));
  const annotations = objects.find(
    (o) =>
      o &&
      o.getProperties().length > 0 &&
      o.getProperties().every((p) => Node.isPropertyAssignment(p) && HINT_KEYS.test(p.getName())),
  );
  const schemaNode = objects.find((o) => o !== annotations);
  const opaque = args.slice(1, -1).some((a) => !Node.isStringLiteral(a) && !asObject(a));
  const description = args.length > 2 ? staticString(args[1]) : undefined;
  return {
    framework: 'mcp',
    name,
    description,
    node: args[0],
    handler,
    annotations,
    schema: schemaNode,
    schemaOpaque: opaque,
  };
}

function configSite(call: CallExpression | NewExpression, calleeName: string): ToolSite | undefined {
  const args = call.getArguments();
  const first = deref(args[0]);
  if (first && isFunctionNode(first)) {
    // LangChain: tool(fn, { name, schema })
    const cfg = asObject(args[1]);
    if (!cfg) return undefined;
    return {
      framework: 'langchain',
      name: staticString(prop(cfg, 'name')) ?? holderName(call),
      description: staticString(prop(cfg, 'description')),
      node: call,
      handler: first,
      ...schemaOf(prop(cfg, 'schema')),
    };
  }
  const cfg = asObject(args[0]);
  if (!cfg) return undefined;
  const handler = deref(prop(cfg, 'execute') ?? prop(cfg, 'func'));
  if (!handler || !isFunctionNode(handler)) return undefined;
  const name = staticString(prop(cfg, 'name')) ?? staticString(prop(cfg, 'id')) ?? holderName(call);
  const framework =
    calleeName === 'createTool'
      ? 'mastra'
      : Node.isNewExpression(call)
        ? 'langchain'
        : prop(cfg, 'name')
          ? 'openai-agents'
          : 'ai-sdk';
  const rawSchema = prop(cfg, 'inputSchema') ?? prop(cfg, 'parameters') ?? prop(cfg, 'schema');
  return {
    framework,
    name,
    description: staticString(prop(cfg, 'description')),
    node: call,
    handler,
    annotations: asObject(prop(cfg, 'annotations')),
    ...schemaOf(rawSchema),
  };
}

export function toolSites(candidates: readonly Node[]): ToolSite[] {
  const out: ToolSite[] = [];
  for (const call of candidates) {
    if (Node.isNewExpression(call)) {
      const site = configSite(call, 'DynamicStructuredTool');
      if (site) out.push(site);
      continue;
    }
    if (!Node.isCallExpression(call)) continue;
    const callee = call.getExpression();
    if (
      Node.isPropertyAccessExpression(callee) &&
      (callee.getName() === 'registerTool' || callee.getName() === 'tool')
    ) {
      const site = mcpSite(call, callee.getName());
      if (site) out.push(site);
    } else if (Node.isIdentifier(callee)) {
      // `tool` / `createTool`, also under an alias (`import { tool as aiTool } from 'ai'`).
      const imported = refOf(callee)?.path.at(-1);
      const name = /^(tool|createTool)$/.test(callee.getText()) ? callee.getText() : imported;
      if (name !== 'tool' && name !== 'createTool') continue;
      const site = configSite(call, name);
      if (site) out.push(site);
    }
  }
  return out;
}

/** The tool site whose handler contains `n`, if any. */
export function enclosingSite(n: Node, sites: readonly ToolSite[]): ToolSite | undefined {
  return sites.find(
    (s) =>
      s.handler &&
      s.handler.getPos() <= n.getPos() &&
      n.getEnd() <= s.handler.getEnd() &&
      s.handler.getSourceFile() === n.getSourceFile(),
  );
}
