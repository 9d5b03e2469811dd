/**
 * Step 3: is the effect compensatable? (docs/concepts.md#mechanisms → OP-5 saga.) Explicit
 * (`x-compensation`, config) or an inferred inverse operation in the same API.
 */
import { isObject } from '../json-pointer/refs.js';
import type { HttpOperation, Operation, ToolOperation } from '../ir/types.js';
import { addFinding, extension, findOverride, reason, type ClassifyContext } from './context.js';
import { INVERSE_VERBS } from './heuristics.js';
import { collectionBase, pathIndex } from './path-index.js';
import { requestFields, responseFields } from './schema-props.js';
import type { AddressPart, Reason } from './types.js';

export interface CompensationResult {
  compensation: string;
  reasons: Reason[];
}

/**
 * Where each path parameter of the inverse takes its value, decided here once: the write's own path
 * parameter of that name, else the request body field or query parameter of that name (the value the caller
 * chose: a variable or label name, a ref), else a field of every success response, else — for the inverse's last parameter, the created thing's — the response `id`.
 * Undefined (with the parameter that has no source) when one cannot be addressed.
 */
function compensationAddress(
  op: HttpOperation,
  inverse: HttpOperation,
  root: unknown,
): { parts: AddressPart[] } | { missing: string } {
  const own = new Set(op.parameters.filter((p) => p.in === 'path').map((p) => p.name));
  const query = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  const response = responseFields(root, op);
  const body = requestFields(root, op);
  const names = [...new Set([...inverse.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!))];
  const parts: AddressPart[] = [];
  for (const [i, param] of names.entries()) {
    if (own.has(param)) parts.push({ param, in: 'path', name: param });
    else if (body.has(param)) parts.push({ param, in: 'body', name: param });
    else if (query.has(param)) parts.push({ param, in: 'query', name: param });
    else if (response.has(param)) parts.push({ param, in: 'response', name: param });
    else {
      // `{team_slug}` ← response `slug`, `{milestone_number}` ← `number`, `{hook_id}` ← `id`; the last one, the
      // created thing's, falls back to the response `id` when its name says nothing else.
      const suffix = /(?:^|[_-]|(?<=[a-z0-9]))(id|number|slug|name|key|sha)$/i.exec(param)?.[1]?.toLowerCase();
      if (suffix !== undefined && response.has(suffix)) parts.push({ param, in: 'response', name: suffix });
      else if (i === names.length - 1 && (suffix === undefined || suffix === 'id') && response.has('id'))
        parts.push({ param, in: 'response', name: 'id' });
      else return { missing: param };
    }
  }
  return { parts };
}

function addressText(parts: AddressPart[]): string {
  if (parts.length === 0) return 'no parameter: a singleton, addressed by its path alone';
  return parts
    .map((p) => `{${p.param}} ← ${p.in === 'response' ? 'response field' : `request ${p.in}`} ${p.name}`)
    .join(', ');
}

/** The address of an HTTP saga's inverse, as the entry keeps it and the audit shows it. */
export function addressCompensation(
  op: Operation,
  inverseKey: string,
  ctx: ClassifyContext,
): { address?: AddressPart[]; reason: Reason } | undefined {
  const inverse = ctx.byKey.get(inverseKey);
  if (op.kind !== 'http' || inverse?.kind !== 'http') return undefined;
  const found = compensationAddress(op, inverse, ctx.api.root);
  if ('missing' in found)
    return {
      reason: reason(
        'compensation_unaddressed',
        `${inverse.key} needs {${found.missing}}, which is neither a request value nor a field of every success response: a 2xx completes the write, which cannot be undone automatically`,
        op.source.pointer,
      ),
    };
  return {
    address: found.parts,
    reason: reason('compensation_address', `${inverse.key}: ${addressText(found.parts)}`, op.source.pointer),
  };
}

/** An operation named by key, operationId, generated name or tool name. */
function lookup(ctx: ClassifyContext, ref: string): Operation | undefined {
  const direct = ctx.byKey.get(ref);
  if (direct) return direct;
  for (const op of ctx.byKey.values()) {
    if (op.name === ref || (op.kind === 'http' ? op.operationId === ref : op.toolName === ref)) return op;
  }
  return undefined;
}

function explicit(op: Operation, ctx: ClassifyContext): CompensationResult | 'missing' | undefined {
  const ov = findOverride(ctx, op);
  const raw = extension(op, 'x-compensation');
  const fromExt =
    typeof raw === 'string' ? raw : isObject(raw) && typeof raw.operation === 'string' ? raw.operation : undefined;
  const named = ov?.override.compensation ?? fromExt;
  if (named === undefined) return undefined;
  const source =
    ov?.override.compensation !== undefined ? `config.overrides["${ov.key}"].compensation` : 'x-compensation';
  const pointer = source === 'x-compensation' ? `${op.source.pointer}/x-compensation` : op.source.pointer;
  const target = lookup(ctx, named);
  if (!target) {
    addFinding(
      ctx,
      'compensation_target_missing',
      `${source} names ${named}, which is not an operation of ${ctx.api.id}`,
      pointer,
    );
    return 'missing';
  }
  return { compensation: target.key, reasons: [reason('compensation_explicit', `${source} → ${target.key}`, pointer)] };
}

function inferHttp(op: HttpOperation, ctx: ClassifyContext): CompensationResult | undefined {
  const index = pathIndex(ctx.memo, ctx.byKey);
  if (op.method === 'post') {
    // POST /things ↔ DELETE /things/{id}: one more path segment, a single template.
    const inverse = index.deleteBelow.get(collectionBase(op.path));
    if (inverse)
      return {
        compensation: inverse.key,
        reasons: [
          reason('compensation_inferred', `POST ${op.path} creates what ${inverse.key} deletes`, op.source.pointer),
        ],
      };
  }
  if (op.method === 'put') {
    // PUT /user/starred/{owner}/{repo} ↔ DELETE of the same path (create-or-replace undone by delete).
    const inverse = index.deleteAt.get(op.path);
    if (inverse)
      return {
        compensation: inverse.key,
        reasons: [reason('compensation_inferred', `PUT ${op.path} is undone by ${inverse.key}`, op.source.pointer)],
      };
  }
  return undefined;
}

/** Replace the verb word in a tool name, keeping its separator style: create_x → delete_x, addX → removeX. */
function swapVerb(name: string, verb: string, inverse: string): string[] {
  const out: string[] = [];
  const sep = new RegExp(`(^|[_\\-.])${verb}(?=[_\\-.]|$)`, 'i');
  if (sep.test(name)) out.push(name.replace(sep, (_m, pre: string) => `${pre}${inverse}`));
  const camel = new RegExp(`^${verb}(?=[A-Z])`);
  if (camel.test(name)) out.push(name.replace(camel, inverse));
  return out;
}

function inferTool(op: ToolOperation, ctx: ClassifyContext): CompensationResult | undefined {
  const tools = new Map<string, ToolOperation>();
  for (const o of ctx.byKey.values()) if (o.kind === 'tool') tools.set(o.toolName, o);
  for (const [verb, inverses] of Object.entries(INVERSE_VERBS)) {
    for (const inv of inverses) {
      for (const candidate of swapVerb(op.toolName, verb, inv)) {
        const target = tools.get(candidate);
        if (target && target !== op) {
          return {
            compensation: target.key,
            reasons: [
              reason(
                'compensation_inferred',
                `${op.toolName} is undone by ${target.toolName} (${verb} ↔ ${inv})`,
                op.source.pointer,
              ),
            ],
          };
        }
      }
    }
  }
  return undefined;
}

export function findCompensation(op: Operation, ctx: ClassifyContext): CompensationResult | undefined {
  const e = explicit(op, ctx);
  if (e === 'missing') return undefined;
  if (e) return e;
  return op.kind === 'http' ? inferHttp(op, ctx) : inferTool(op, ctx);
}
