/**
 * Is this call a write? Found by behaviour, not by a list of SDKs: anything that can leave the
 * process with an effect — an HTTP call with a non-GET method (fetch, undici, axios, got, ky,
 * superagent), a method with an effect verb (EFFECT_VERBS: send, create, post …) on an object built
 * from or imported from a third-party package (`sgMail.send`, `new WebClient().chat.postMessage`,
 * `nodemailer.createTransport().sendMail`), a child process, a file write — plus SQL
 * INSERT/UPDATE/DELETE through a query call, document-store and Prisma writes, AWS SDK v3 commands and
 * a generated client's write-verb method (`client.createCharge`). The SDK registry (sdk-registry.ts)
 * only names the SDK and its key option in the message; it is not the gate.
 */
import { isBuiltin } from 'node:module';
import { Node, SyntaxKind, type CallExpression, type NewExpression } from 'ts-morph';
import { nameWords } from '../classify/effect.js';
import { EFFECT_VERBS, type Heuristics } from '../classify/heuristics.js';
import { findLocal, projectFunction } from './origins.js';
import { refOf, type Ref } from './resolve.js';
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

/** Calls that take `{ method }` in an argument and default to GET: fetch and the HTTP libraries' own call form. */
const FETCH_LIKE = new Set(['node-fetch', 'cross-fetch', 'undici', 'axios', 'got', 'ky']);

function httpMethod(call: CallExpression): { lib: string; method: string } | undefined {
  const ref = refOf(call.getExpression());
  if (!ref) return undefined;
  const path = ref.path.filter((p) => p !== 'default').join('.');
  const lib =
    ref.module === 'global' && path === 'fetch'
      ? 'fetch'
      : FETCH_LIKE.has(ref.module) && /^(|fetch|request)$/.test(path)
        ? ref.module === 'node-fetch' || ref.module === 'cross-fetch' || path === 'fetch'
          ? 'fetch'
          : ref.module
        : undefined;
  if (!lib) return undefined;
  for (const a of call.getArguments()) {
    const init = deref(a);
    if (!init || !Node.isObjectLiteralExpression(init)) continue;
    const m = init.getProperty('method');
    if (m && Node.isPropertyAssignment(m))
      return { lib, method: (staticString(m.getInitializer()) ?? 'UNKNOWN').toUpperCase() };
  }
  return { lib, method: 'GET' };
}

const CHILD_PROCESS_MODULES = new Set(['child_process', 'execa', 'cross-spawn']);
const CHILD_PROCESS_CALLS =
  /^(exec|execSync|execFile|execFileSync|spawn|spawnSync|fork|execa|execaSync|execaCommand|command|sync|default)$/;
const FS_MODULES = new Set(['fs', 'fs/promises', 'fs-extra', 'graceful-fs']);
const FILE_WRITES =
  /^(writeFile|appendFile|rm|rmdir|unlink|rename|copyFile|cp|truncate|mkdir|symlink|link|chmod|chown|utimes|createWriteStream|outputFile|outputJson|writeJson|remove|emptyDir|move|copy)(Sync)?$/;
/**
 * Packages whose effect-verb methods change nothing outside the process, or only answer a request:
 * schemas and collections, graph state, web frameworks (`app.post('/path', handler)` registers a
 * route), the MCP SDK's protocol messages.
 */
const IN_PROCESS =
  /^(zod|yup|joi|ajv|lodash(-es)?(\/.*)?|underscore|ramda|immer|immutable|rxjs|react|react-dom(\/.*)?|vue|redux|lru-cache|quick-lru|node-cache|@reduxjs\/.*|@langchain\/langgraph.*|@langchain\/core.*|@modelcontextprotocol\/sdk.*|express|fastify|koa|@koa\/.*|koa-router|hono|@hono\/.*|restify|h3|elysia)$/;
/** Model inference, not an effect on the world: `openai.chat.completions.create`, Anthropic `messages.create`. */
const LLM_MODULES =
  /^(openai|@anthropic-ai\/sdk|@google\/genai|@google\/generative-ai|@mistralai\/mistralai|groq-sdk|cohere-ai)$/;
const LLM_CALLS = new Set(['completions', 'responses', 'embeddings', 'moderations', 'messages', 'models', 'chat']);
/** Effect verbs that on a library object mostly mean something in-process (`form.append`, `yup.string().email()`). */
const LIBRARY_SKIP_VERBS = new Set([
  ...WEAK_VERBS,
  'append',
  'register',
  'schedule',
  'merge',
  'order',
  'email',
  'sms',
  'void',
  'capture',
  'dispatch',
  'toggle',
  'reset',
  // String.prototype.replace on a value a library returned (`randomUUID().replace(/-/g, '')`).
  'replace',
]);
/** `axios.create()`, `nodemailer.createTransport()`, `redis.createClient()`: factories, not effects. */
const FACTORY =
  /^create(Client|Transport|Transporter|Connection|Pool|Server|Instance|Logger|Store|Hash|Hmac|Cipheriv|Decipheriv|Interface|Router|App|Context|Schema|Parser|Element|Slice|Action|Reducer|Tool|Graph|Chain|Model|Template|Agent|Worker|Signer|Reader|Writer)?$/;

function isLibraryEffect(names: readonly string[], verb: string | undefined, module: string | undefined): boolean {
  if (!verb || !EFFECT_VERBS.has(verb) || LIBRARY_SKIP_VERBS.has(verb) || !isThirdParty(module)) return false;
  const method = names[names.length - 1];
  // A bare factory called on the module itself (`axios.create()`), or a named factory anywhere.
  if (FACTORY.test(method) && (method !== 'create' || names.length <= 2)) return false;
  if (LLM_MODULES.test(module) && names.some((n) => LLM_CALLS.has(n))) return false;
  return true;
}

function isThirdParty(module: string | undefined): module is string {
  if (!module || module === 'global' || /^[.~#/]|^@\//.test(module) || IN_PROCESS.test(module)) return false;
  return !isBuiltin(module);
}

/**
 * The module an expression's value comes from: an import or require, `new X(…)` / `x(…)` / `x.y` of
 * one, or a local initialised from one (a few hops: `const t = nodemailer.createTransport(…)`).
 * A parameter or anything else is unknown.
 */
function originModule(n: Node, depth = 0): string | undefined {
  if (depth > 6) return undefined;
  if (
    Node.isAwaitExpression(n) ||
    Node.isParenthesizedExpression(n) ||
    Node.isNonNullExpression(n) ||
    Node.isAsExpression(n) ||
    Node.isNewExpression(n) ||
    Node.isCallExpression(n) ||
    Node.isPropertyAccessExpression(n)
  )
    return originModule(n.getExpression(), depth + 1);
  if (!Node.isIdentifier(n)) return undefined;
  const ref: Ref | undefined = refOf(n);
  if (ref && ref.module !== 'global') return ref.module;
  const decl = findLocal(n);
  if (decl && Node.isVariableDeclaration(decl)) {
    const init = decl.getInitializer();
    return init ? originModule(init, depth + 1) : undefined;
  }
  return decl ? undefined : ref?.module;
}

/** A child process or a file write, by the module the callee comes from. */
function processOrFileWrite(call: CallExpression): string | undefined {
  const callee = call.getExpression();
  const ref = refOf(callee);
  const module = ref?.module ?? (Node.isPropertyAccessExpression(callee) ? originModule(callee) : undefined);
  const last = ref?.path.at(-1) ?? (Node.isPropertyAccessExpression(callee) ? callee.getName() : undefined);
  if (!module || !last) return undefined;
  if (CHILD_PROCESS_MODULES.has(module) && CHILD_PROCESS_CALLS.test(last)) return `child process ${module}.${last}`;
  if (FS_MODULES.has(module) && FILE_WRITES.test(last)) return `file write ${module}.${last}`;
  return undefined;
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
  const http = httpMethod(call);
  if (http !== undefined)
    return /^(GET|HEAD|OPTIONS|UNKNOWN)$/.test(http.method) ? undefined : { call, label: `${http.lib} ${http.method}` };
  const effect = processOrFileWrite(call);
  if (effect) return { call, label: effect };
  if (!Node.isPropertyAccessExpression(callee)) return undefined;
  const names = chain(callee);
  const name = names[names.length - 1];
  const module = originModule(callee.getExpression());
  if (/^(post|put|patch|delete|del)$/.test(name) && (HTTP_LIBS.has(module ?? '') || names[0] === 'axios'))
    return { call, label: `HTTP ${name === 'del' ? 'DELETE' : name.toUpperCase()}` };
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
  // Behaviour, not a list: an effect verb on anything a third-party package built or exported.
  if (isLibraryEffect(names, verb, module))
    return { call, label: `${names.join('.').replace(/\s+/g, ' ')} (${module})` };
  return undefined;
}

/**
 * A write made inside a helper of the project that the call runs (`await sendReply(state)` whose body
 * calls `sgMail.send`), up to `depth` helpers deep; the label names the path. Only direct calls of a
 * function declared in the audited files are followed, never methods or other packages.
 */
export function helperWrite(
  call: CallExpression | NewExpression,
  h: Heuristics,
  depth = 2,
  seen = new Set<Node>(),
): WriteCall | undefined {
  if (!Node.isCallExpression(call)) return undefined;
  const callee = call.getExpression();
  if (!Node.isIdentifier(callee)) return undefined;
  const fn = projectFunction(callee);
  if (!fn || seen.has(fn)) return undefined;
  seen.add(fn);
  for (const inner of [
    ...fn.getDescendantsOfKind(SyntaxKind.CallExpression),
    ...fn.getDescendantsOfKind(SyntaxKind.NewExpression),
  ]) {
    const w = writeCall(inner, h, true) ?? (depth > 1 ? helperWrite(inner, h, depth - 1, seen) : undefined);
    if (w) return { call, label: `${callee.getText()}() → ${w.label}` };
  }
  return undefined;
}
