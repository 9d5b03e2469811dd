/**
 * The wire-conformance harness: for each operation of a spec, one call through the generated
 * client and one through the tool runtime, with arguments sampled from the tool's input schema, against
 * a server that validates every request it receives against the spec (validating-server.ts). Each
 * (operation, path) is conformant when the call reached the server, every request matched that operation
 * and the validator found nothing, and the call finished; otherwise it is a failure with a category and
 * what the validator (or the runtime) said.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml } from 'yaml';
import type { ApiPlan } from '../../../src/classify/types.js';
import { resolveConfig } from '../../../src/config/types.js';
import { emitClient } from '../../../src/emit/client/index.js';
import { buildToolBindings } from '../../../src/emit/handlers/bindings.js';
import { createMemoryStore } from '../../../packages/runtime/src/index.js';
import { createToolRuntime, type ToolBinding, type ToolOutcome } from '../../../packages/runtime/src/tools/index.js';
import { routeArguments } from '../../../packages/runtime/src/tools/route.js';
import { importClient } from '../../emit/client/helpers/import-client.js';
import { loadApis, planApis } from '../../emit/client/helpers/spec-plan.js';
import { sampleArguments } from './sample.js';
import { everyNth, type WireTarget } from './targets.js';
import { startValidatingServer, type ValidatingServer } from './validating-server.js';

type Obj = Record<string, unknown>;
type Client = Record<string, (request: unknown, options?: unknown) => Promise<unknown>>;

type WirePath = 'client' | 'tool';

interface WireFailure {
  operation: string;
  path: WirePath;
  /** `not-sent`, `route`, `path`, `query`, `header`, `body`, `content-type`, `call-failed`, `no-sample`. */
  category: string;
  /** The request as sent and what the validator or the runtime said. */
  detail: string;
}

export interface WireSpecResult {
  spec: string;
  operations: number;
  client: number;
  tool: number;
  failures: WireFailure[];
}

interface WireOptions {
  /** Which bindings to call (all when absent): a deterministic sample for the quick suite. */
  pick?: (bindings: ToolBinding[]) => ToolBinding[] | undefined;
  seed: number;
  /** Folder under test/emit/client/__out__ for the generated client. */
  outDir: string;
}

const require = createRequire(import.meta.url);
const swagger2openapi = require('swagger2openapi') as {
  convertObj(doc: Obj, options: Obj): Promise<{ openapi: Obj }>;
};

/** Whether a document refers to another file (a `$ref` that is neither local nor a URL). */
function hasFileRefs(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasFileRefs);
  if (node === null || typeof node !== 'object') return false;
  for (const [k, v] of Object.entries(node)) {
    if (k === '$ref' && typeof v === 'string' && !v.startsWith('#') && !/^https?:/.test(v)) return true;
    if (hasFileRefs(v)) return true;
  }
  return false;
}

/**
 * The spec as one document the validator can read: bundled when it refers to other files (a one-file
 * spec is read as it is: bundling GitHub's takes 8 s), 2.0 converted to 3.0.
 */
async function validatorDocument(file: string): Promise<Obj> {
  const text = readFileSync(file, 'utf8');
  const parsed = (/\.json$/i.test(file) ? JSON.parse(text) : parseYaml(text, { maxAliasCount: -1 })) as Obj;
  // a ref the bundler cannot follow (an `$id`-relative one in 3.1) leaves the spec as it is
  const bundled = hasFileRefs(parsed)
    ? ((await SwaggerParser.bundle(file).catch(() => parsed)) as unknown as Obj)
    : parsed;
  if (typeof bundled.swagger !== 'string') return bundled;
  const { openapi } = await swagger2openapi.convertObj(bundled, { patch: true, warnOnly: true, resolve: false });
  return openapi;
}

function factoryOf(contents: string): string {
  const m = /export function (create\w+Client)[<(]/.exec(contents);
  if (m === null) throw new Error('the generated client exports no create…Client factory');
  return m[1]!;
}

/** Long sampled values make long URLs: the head (what was sent) and the tail (what was said) are kept. */
const clip = (text: string) => (text.length <= 480 ? text : `${text.slice(0, 240)} … ${text.slice(-200)}`);

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** A key within the binding's length limits (16 characters at least), distinct per operation and path. */
function keyFor(binding: ToolBinding, index: number, path: WirePath): string {
  const base = `wire-${path}-${String(index).padStart(5, '0')}-0123456789abcdef`;
  const min = Math.max(binding.keyLimits?.minLength ?? 16, 16);
  return base.padEnd(min, 'k').slice(0, Math.max(binding.keyLimits?.maxLength ?? Infinity, min));
}

function judge(
  binding: ToolBinding,
  path: WirePath,
  server: ValidatingServer,
  from: number,
  error: string | undefined,
  args: Obj,
): WireFailure | undefined {
  const fail = (category: string, detail: string): WireFailure => ({
    operation: binding.operation,
    path,
    category,
    detail: clip(detail),
  });
  const requests = server.received.slice(from);
  if (requests.length === 0) return fail('not-sent', `no request reached the server: ${error ?? 'the call returned'}`);
  for (const r of requests) {
    const sent = `${r.method} ${r.url.length > 160 ? `${r.url.slice(0, 160)}…` : r.url}`;
    const empty = binding.routes.filter((x) => x.in === 'path' && args[x.property] === '').map((x) => x.name);
    if (r.matched !== binding.operation && empty.length > 0)
      return fail(
        'empty-path-value',
        `path parameter ${empty.join(', ')} = "" sent ${sent}, which the spec routes to ${r.matched ?? 'no operation'}`,
      );
    if (r.matched !== binding.operation && r.errors.length === 0)
      return fail('route', `sent ${sent}, which the spec routes to ${r.matched ?? 'no operation'}`);
    if (r.errors.length > 0) {
      const type = r.headers['content-type'] === undefined ? '' : ` (${r.headers['content-type']})`;
      const body = r.body === '' ? '' : ` body${type} ${r.body.length > 160 ? `${r.body.slice(0, 160)}…` : r.body}`;
      return fail(r.categories[0]!, `sent ${sent}${body}: ${r.errors.slice(0, 3).join('; ')}`);
    }
  }
  if (error !== undefined) return fail('call-failed', `the request conformed but the call failed: ${error}`);
  return undefined;
}

function toolError(out: ToolOutcome): string | undefined {
  if (out.ok) return undefined;
  const issues = out.error.issues?.map((i) => `${i.pointer}: ${i.message}`).join('; ');
  return `${out.error.code}: ${out.error.message}${issues ? ` [${issues}]` : ''}`;
}

async function runApi(label: string, plan: ApiPlan, document: Obj, options: WireOptions): Promise<WireSpecResult> {
  const config = resolveConfig();
  const all = buildToolBindings(plan, config);
  const bindings = options.pick?.(all) ?? all;
  const result: WireSpecResult = { spec: label, operations: bindings.length, client: 0, tool: 0, failures: [] };
  if (bindings.length === 0) return result;
  const { files } = emitClient({ apis: [plan], diagnostics: [] }, config);
  const clientFile = files.find((f) => f.path.startsWith('client/') && f.path.endsWith('.gen.ts'));
  if (clientFile === undefined) throw new Error(`${label}: no client was generated`);
  const factory = await importClient(options.outDir, files, clientFile.path, factoryOf(clientFile.contents));
  const server = await startValidatingServer(document);
  const fast = { timeoutMs: 10_000, retry: { attempts: 1 } };
  try {
    const client = factory({ baseUrl: server.url, store: createMemoryStore(), ...fast }) as unknown as Client;
    const tools = createToolRuntime({ bindings: all, baseUrl: server.url, store: createMemoryStore(), ...fast });
    let i = 0;
    for (const binding of bindings) {
      i += 1;
      const sampled = await sampleArguments(binding, options.seed * 100_003 + i);
      if (typeof sampled === 'string') {
        for (const path of ['client', 'tool'] as const)
          result.failures.push({ operation: binding.operation, path, category: 'no-sample', detail: sampled });
        continue;
      }
      // client path
      const clientKey = keyFor(binding, i, 'client');
      const request = routeArguments(binding, sampled);
      const method = client[binding.clientMethod];
      let from = server.received.length;
      let error: string | undefined;
      try {
        if (typeof method !== 'function') throw new Error(`the client has no method ${binding.clientMethod}`);
        await method.call(client, request, binding.effect === 'write' ? { key: clientKey } : undefined);
      } catch (err) {
        error = message(err);
      }
      const c = judge(binding, 'client', server, from, error, sampled);
      if (c === undefined) result.client += 1;
      else result.failures.push(c);
      // tool path
      const args = { ...sampled };
      if (binding.keyProperty !== undefined) args[binding.keyProperty] = keyFor(binding, i, 'tool');
      from = server.received.length;
      let out: ToolOutcome;
      try {
        out = await tools.call(binding.names.mcp, args);
      } catch (err) {
        out = {
          ok: false,
          error: { code: 'threw', message: message(err), executed: 'unknown', retry_same_key: false },
        };
      }
      const t = judge(binding, 'tool', server, from, toolError(out), sampled);
      if (t === undefined) result.tool += 1;
      else result.failures.push(t);
    }
    return result;
  } finally {
    await server.close();
  }
}

/** Every API of one target's spec, each (sampled) operation called on both paths. */
export async function wireTarget(target: WireTarget, outDir: string, seed = 1): Promise<WireSpecResult[]> {
  const { apis, errors } = await loadApis([target.file], target.cwd);
  if (apis.length === 0) throw new Error(`${target.file}: ${errors.join('; ')}`);
  const document = await validatorDocument(resolve(target.cwd, target.file));
  const plans = planApis(apis);
  const out: WireSpecResult[] = [];
  const options = { pick: everyNth(target.every), seed };
  for (const [i, plan] of plans.entries()) {
    const label = plans.length === 1 ? target.name : `${target.name}#${i}`;
    out.push(await runApi(label, plan, document, { ...options, outDir: `${outDir}/${i}` }));
  }
  return out;
}

/** Failures counted by category (each failed operation-path once). */
function categories(result: WireSpecResult): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const f of result.failures) counts[f.category] = (counts[f.category] ?? 0) + 1;
  return counts;
}

/** The harness table: one row per spec. */
export function formatTable(results: WireSpecResult[]): string {
  const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)} %`);
  const rows = results.map((r) => [
    r.spec,
    String(r.operations),
    `${r.client} (${pct(r.client, r.operations)})`,
    `${r.tool} (${pct(r.tool, r.operations)})`,
    Object.entries(categories(r))
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${k} ${v}`)
      .join(', ') || '—',
  ]);
  const head = ['spec', 'operations', 'client path', 'tool path', 'failures by category (operation-paths)'];
  const width = head.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) => `| ${cells.map((x, c) => x.padEnd(width[c]!)).join(' | ')} |`;
  return [line(head), line(width.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
