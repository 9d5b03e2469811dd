/**
 * key_generated_in_tool, time_varying_key, tool_call_id_as_key: every key sink in the file is traced
 * back (origins.ts) and judged by what it is made of.
 */
import type { Node } from 'ts-morph';
import type { Heuristics } from '../classify/heuristics.js';
import { originsOf, type Origin } from './origins.js';
import { sinkAt } from './sinks.js';
import { enclosingSite, type ToolSite } from './sites.js';
import type { Emit } from './emit.js';

function short(o: Origin): string {
  const raw = o.node.getText().replace(/\s+/g, ' ');
  const text = raw.length > 40 ? `${raw.slice(0, 37)}…` : raw;
  return o.via ? `${text} in helper ${o.via}()` : text;
}

export function checkKeys(candidates: readonly Node[], sites: readonly ToolSite[], h: Heuristics, emit: Emit): void {
  for (const candidate of candidates) {
    const sink = sinkAt(candidate, h);
    if (!sink) continue;
    const origins = originsOf(sink.value);
    const site = enclosingSite(sink.node, sites);
    const random = origins.find((o) => o.kind === 'random');
    if (random && site) {
      emit(
        'key_generated_in_tool',
        sink.node,
        `idempotency key ${sink.name} is minted by ${short(random)} inside tool ${site.name ?? '(unnamed)'}: each retry of the call gets a new key`,
        'take the key from the tool arguments (a required idempotency_key) or from checkpointed state',
      );
    }
    const time = origins.find((o) => o.kind === 'time');
    if (time) {
      emit(
        'time_varying_key',
        sink.node,
        `idempotency key ${sink.name} depends on the clock (${short(time)}): a retry computes a different key`,
        'derive the key from the intent (arguments or a persisted id), not from the time of the attempt',
      );
    }
    const callId = origins.find((o) => o.kind === 'toolCallId');
    if (callId) {
      emit(
        'tool_call_id_as_key',
        sink.node,
        `idempotency key ${sink.name} is the tool-call id (${short(callId)}), which changes when the model re-emits the call`,
        'use an idempotency_key the agent persists per intent instead of the emission id',
      );
    }
  }
}
