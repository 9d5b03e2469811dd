/**
 * Is this call a write? Known SDK writes (sdk-registry.ts), AWS SDK v3 commands, `fetch` with a
 * non-GET method, axios/got/ky verbs, SQL INSERT/UPDATE/DELETE through a query call, document-store
 * inserts, Prisma writes, and a generated client's write-verb method (`client.createCharge`).
 */
import { Node, type CallExpression, type NewExpression } from 'ts-morph';
import { nameWords } from '../classify/effect.js';
import type { Heuristics } from '../classify/heuristics.js';
import { findLocal } from './origins.js';
import { refOf } from './resolve.js';
import { AWS_TOKEN_COMMANDS, SDK_REGISTRY, type SdkEntry } from './sdk-registry.js';
import { deref, staticString } from './sites.js';

export interface WriteCall {
  call: CallExpression | NewExpression;
  label: string;
  sdk?: SdkEntry;
  /** AWS command: the token member the input should carry. */
  awsToken?: string;
}

const HTTP_LIBS = new Set(['axios', 'got', 'ky', 'superagent', 'undici']);
const DOC_WRITES =
  /^(insert|insertOne|insertMany|updateOne|updateMany|replaceOne|deleteOne|deleteMany|findOneAndUpdate|findOneAndDelete|bulkWrite|upsert)$/;
const PRISMA_WRITES = /^(create|createMany|update|updateMany|upsert|delete|deleteMany)$/;
const SQL_CALLS = /^(query|execute|run|exec|none|one|oneOrNone|any|many|raw|unsafe)$/;
const SQL_WRITE = /^\s*(insert|update|delete|merge|replace|upsert)\b/i;
/** Verbs too generic to call a method a write on their own (`map.set`, `state.run`). */
const WEAK_VERBS = new Set([
  'set',
  'run',
  'execute',
  'invoke',
  'start',
  'stop',
  'apply',
  'open',
  'close',
  'add',
  'push',
  'emit',
  'mark',
  'tag',
  'label',
  'link',
  'import',
  'sync',
  'copy',
  'reset',
  'lock',
  'unlock',
  'toggle',
  'drop',
  'store',
  'save',
  'message',
]);

/** `a.b.c.method(...)` → [a, b, c, method] names, `this` included. */
function chain(n: Node): string[] {
  if (Node.isPropertyAccessExpression(n)) return [...chain(n.getExpression()), n.getName()];
  if (Node.isCallExpression(n)) return chain(n.getExpression());
  if (Node.isNonNullExpression(n) || Node.isParenthesizedExpression(n) || Node.isAwaitExpression(n))
    return chain(n.getExpression());
  return [n.getText()];
}

function rootNode(n: Node): Node {
  if (
    Node.isPropertyAccessExpression(n) ||
    Node.isCallExpression(n) ||
    Node.isNonNullExpression(n) ||
    Node.isParenthesizedExpression(n)
  )
    return rootNode(n.getExpression());
  return n;
}

/** The module an instance was constructed from: `const s = new Stripe(k)` → `stripe`. */
function instanceModule(root: Node): string | undefined {
  if (!Node.isIdentifier(root)) return undefined;
  const decl = findLocal(root);
  let init = decl && Node.isVariableDeclaration(decl) ? decl.getInitializer() : undefined;
  while (init && (Node.isPropertyAccessExpression(init) || Node.isAwaitExpression(init))) init = init.getExpression();
  if (init && Node.isNewExpression(init)) return refOf(init.getExpression())?.module;
  return refOf(root)?.module;
}

function sdkOf(call: CallExpression, anyWrite: boolean): SdkEntry | undefined {
  const callee = call.getExpression();
  if (!Node.isPropertyAccessExpression(callee)) return undefined;
  const names = chain(callee);
  const method = names[names.length - 1];
  const module = instanceModule(rootNode(callee.getExpression()));
  return SDK_REGISTRY.find((e) => {
    if (!(anyWrite ? (e.writes ?? e.methods) : e.methods).test(method)) return false;
    if (module !== undefined && e.modules.includes(module)) return true;
    // The receiver path is searched for the name (`stripe.x.create`, `this.stripe.x.create`), never the method.
    return e.namePattern !== undefined && names.slice(0, -1).some((n) => e.namePattern!.test(n));
  });
}

function fetchMethod(call: CallExpression): string | undefined {
  const ref = refOf(call.getExpression());
  const isFetch =
    (ref?.module === 'global' && ref.path.join('.') === 'fetch') ||
    (ref &&
      ['node-fetch', 'undici', 'cross-fetch'].includes(ref.module) &&
      /^(default|fetch)$/.test(ref.path.join('.')));
  if (!isFetch) return undefined;
  const init = deref(call.getArguments()[1]);
  if (!init || !Node.isObjectLiteralExpression(init)) return 'GET';
  const m = init.getProperty('method');
  return m && Node.isPropertyAssignment(m) ? (staticString(m.getInitializer()) ?? 'UNKNOWN').toUpperCase() : 'GET';
}

/**
 * `anyWrite`: every state-changing SDK call counts (the interrupt rule); otherwise only the calls
 * whose repetition adds something and so need the SDK's key (sdk_write_without_key).
 */
export function writeCall(
  call: CallExpression | NewExpression,
  h: Heuristics,
  anyWrite = false,
): WriteCall | undefined {
  if (Node.isNewExpression(call)) {
    const ref = refOf(call.getExpression());
    const cls = call.getExpression().getText();
    if (!ref?.module.startsWith('@aws-sdk/client-')) return undefined;
    const className = ref.path[ref.path.length - 1] ?? cls;
    const token = AWS_TOKEN_COMMANDS[className];
    if (token) return { call, label: `AWS ${className}`, awsToken: token };
    const verb = nameWords(className)[0];
    return verb && h.writeVerbs.has(verb) && /Command$/.test(className)
      ? { call, label: `AWS ${className}` }
      : undefined;
  }
  const sdk = sdkOf(call, anyWrite);
  const callee = call.getExpression();
  if (sdk) return { call, label: `${sdk.sdk} ${chain(callee).slice(1).join('.')}`, sdk };
  const method = fetchMethod(call);
  if (method !== undefined)
    return /^(GET|HEAD|OPTIONS|UNKNOWN)$/.test(method) ? undefined : { call, label: `fetch ${method}` };
  if (!Node.isPropertyAccessExpression(callee)) return undefined;
  const names = chain(callee);
  const name = names[names.length - 1];
  const rootRef = refOf(rootNode(callee));
  if (/^(post|put|patch|delete)$/.test(name) && (HTTP_LIBS.has(rootRef?.module ?? '') || names[0] === 'axios'))
    return { call, label: `HTTP ${name.toUpperCase()}` };
  if (DOC_WRITES.test(name)) return { call, label: `DB ${name}` };
  if (PRISMA_WRITES.test(name) && /prisma/i.test(names[0]))
    return { call, label: `Prisma ${names.slice(1).join('.')}` };
  if (SQL_CALLS.test(name)) {
    const first = call.getArguments()[0];
    const sql = first && (Node.isTemplateExpression(first) ? first.getHead().getLiteralText() : staticString(first));
    if (sql && SQL_WRITE.test(sql)) return { call, label: `SQL ${sql.trim().split(/\s+/)[0].toUpperCase()}` };
  }
  const receiver = names[names.length - 2] ?? '';
  const verb = nameWords(name)[0];
  if (/(client|api|sdk|service)$/i.test(receiver) && verb && h.writeVerbs.has(verb) && !WEAK_VERBS.has(verb))
    return { call, label: `${receiver}.${name}` };
  return undefined;
}
