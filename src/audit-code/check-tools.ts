/**
 * write_tool_without_key: a tool that writes — by its name's verb, its description's leading verb
 * ("Create a payout"), or what its handler does (writes.ts: an HTTP call that is not a GET, an
 * effect-verb call on a third-party SDK, a child process, a file write) — whose input schema has no
 * key field, or whose handler never reads the one it declares. Only verbs that name a state change on
 * their own count (`EFFECT_VERBS` in classify/heuristics.ts): `trigger_*`/`start_*` tools in the
 * reference servers ask the client for sampling or stream notifications and change nothing durable.
 * idempotentHint: true is honoured (it declares a natural idempotence such as overwriting a file);
 * readOnlyHint: true is not, when the name, description or handler says the tool writes (the finding
 * says so); a schema that cannot be read statically is not guessed.
 */
import { Node, SyntaxKind, type ObjectLiteralExpression } from 'ts-morph';
import { descriptionEffectVerb, nameWords } from '../classify/effect.js';
import type { Heuristics } from '../classify/heuristics.js';
import { EFFECT_VERBS } from '../classify/heuristics.js';
import { isKeyName } from './sinks.js';
import { deref, type ToolSite } from './sites.js';
import { helperWrite, writeCall } from './writes.js';
import type { Emit } from './emit.js';

function keysOf(obj: ObjectLiteralExpression): string[] {
  return obj
    .getProperties()
    .flatMap((p) =>
      Node.isPropertyAssignment(p) || Node.isShorthandPropertyAssignment(p)
        ? [p.getName().replace(/^['"]|['"]$/g, '')]
        : [],
    );
}

/** Field names of a zod raw shape, `z.object(...)` chain, JSON Schema literal or `jsonSchema(...)`; undefined if unreadable. */
function schemaFields(schema: Node | undefined): string[] | undefined {
  const n = deref(schema);
  if (!n) return [];
  if (Node.isObjectLiteralExpression(n)) {
    const props = n.getProperty('properties');
    if (props && Node.isPropertyAssignment(props)) {
      const obj = deref(props.getInitializer());
      return obj && Node.isObjectLiteralExpression(obj) ? keysOf(obj) : undefined;
    }
    if (n.getProperty('type') && !n.getProperty('properties')) return [];
    return keysOf(n);
  }
  if (Node.isCallExpression(n)) {
    const callee = n.getExpression();
    const own = n.getArguments()[0] ? schemaFields(n.getArguments()[0]) : [];
    if (!Node.isPropertyAccessExpression(callee)) return /jsonSchema$/.test(callee.getText()) ? own : undefined;
    const method = callee.getName();
    if (/^(object|strictObject|looseObject|extend|merge|passthrough|strict|describe|optional|default)$/.test(method)) {
      const inner = Node.isCallExpression(callee.getExpression()) ? schemaFields(callee.getExpression()) : [];
      if (inner === undefined || own === undefined) return undefined;
      return /^(object|strictObject|looseObject|extend|merge)$/.test(method) ? [...inner, ...own] : inner;
    }
  }
  return undefined;
}

function hint(site: ToolSite, name: string): boolean | undefined {
  const p = site.annotations?.getProperty(name);
  if (!p || !Node.isPropertyAssignment(p)) return undefined;
  const v = p.getInitializer()?.getText();
  return v === 'true' ? true : v === 'false' ? false : undefined;
}

function handlerReads(handler: Node, field: string): boolean {
  return handler
    .getDescendants()
    .some(
      (d) =>
        (Node.isIdentifier(d) || Node.isStringLiteral(d)) &&
        (Node.isStringLiteral(d) ? d.getLiteralValue() : d.getText()) === field,
    );
}

/** Why the tool counts as a write, or undefined. */
function writeEvidence(site: ToolSite, h: Heuristics): string | undefined {
  const verb = nameWords(site.name ?? '').find((w) => h.writeVerbs.has(w) || h.readVerbs.has(w));
  if (verb && EFFECT_VERBS.has(verb)) return `verb ${verb}`;
  const described = descriptionEffectVerb(site.description);
  if (described) {
    const text = site.description!.trim().replace(/\s+/g, ' ');
    return `its description says "${text.length > 40 ? `${text.slice(0, 39)}…` : text}"`;
  }
  if (!site.handler) return undefined;
  for (const call of [
    ...site.handler.getDescendantsOfKind(SyntaxKind.CallExpression),
    ...site.handler.getDescendantsOfKind(SyntaxKind.NewExpression),
  ]) {
    const w = writeCall(call, h, true) ?? helperWrite(call, h);
    if (w) return `its handler calls ${w.label} at line ${call.getStartLineNumber()}`;
  }
  return undefined;
}

export function checkTools(sites: readonly ToolSite[], h: Heuristics, emit: Emit): void {
  for (const site of sites) {
    if (!site.name) continue;
    if (hint(site, 'idempotentHint') === true) continue;
    if (site.schemaOpaque) continue;
    const why = writeEvidence(site, h);
    if (!why) continue;
    const fields = schemaFields(site.schema);
    if (fields === undefined) continue;
    // A hint never makes a write look safe: readOnlyHint: true on a tool that writes is reported too.
    const contradicts = hint(site, 'readOnlyHint') === true ? ', although it is annotated readOnlyHint: true' : '';
    const key = fields.find((f) => isKeyName(f, h));
    if (key === undefined) {
      emit(
        'write_tool_without_key',
        site.node,
        `tool ${site.name} writes (${why})${contradicts} but its input schema has no idempotency key field`,
        'add a required idempotency_key to the input schema and pass it to the downstream write',
      );
    } else if (
      site.handler &&
      !handlerReads(site.handler, key) &&
      !site.handler.getDescendantsOfKind(SyntaxKind.SpreadElement).length
    ) {
      emit(
        'write_tool_without_key',
        site.node,
        `tool ${site.name} declares ${key} but its handler never reads it`,
        `pass ${key} to the downstream write as its idempotency key`,
      );
    }
  }
}
