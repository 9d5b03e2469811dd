/**
 * A 2xx is never an unknown outcome: every compensatable write of GitHub's spec (@octokit/openapi) is called
 * through the tool runtime against a server that answers 2xx, and each one completes. Its inverse is addressed
 * by whatever the spec offers (request path, body, a response field; nothing for a singleton), decided at
 * generate time; one that nothing addresses completes as done-but-cannot-be-undone.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiPlan } from '../../../src/classify/types.js';
import { resolveConfig } from '../../../src/config/types.js';
import { buildToolBindings } from '../../../src/emit/handlers/bindings.js';
import { createMemoryStore } from '../../../packages/runtime/src/index.js';
import { createToolRuntime } from '../../../packages/runtime/src/tools/index.js';
import { routeArguments } from '../../../packages/runtime/src/tools/route.js';
import { loadApis, planApis } from '../../emit/client/helpers/spec-plan.js';
import { sampleArguments } from '../../wire/helpers/sample.js';

const ROOT = resolve(import.meta.dirname, '../../..');

describe('saga inverse address (GitHub)', () => {
  it('every compensatable write completes after a 2xx; request-addressed ones record their inverse', {
    timeout: 180_000,
  }, async () => {
    const { apis } = await loadApis(['@octokit/openapi/generated/api.github.com.json'], join(ROOT, 'node_modules'));
    const plan: ApiPlan = planApis(apis)[0]!;
    const sagas = plan.entries.filter((e) => e.mechanism === 'saga');
    const byRequest = sagas.filter((e) => e.compensationAddress?.every((p) => p.in !== 'response') === true);
    const unaddressed = sagas.filter((e) => e.compensationAddress === undefined);
    console.log(
      `GitHub: ${sagas.length} saga writes; inverse addressed by request values alone ${byRequest.length}, with a response field ${sagas.length - byRequest.length - unaddressed.length}, not addressable ${unaddressed.length}`,
    );
    // Variables, labels, refs, custom properties, an import and a singleton: their inverse needs no response field.
    expect([sagas.length, byRequest.length, unaddressed.length]).toEqual([58, 12, 6]);
    expect(byRequest.map((e) => e.operation.key)).toContain('POST /repos/{owner}/{repo}/git/refs');
    expect(byRequest.find((e) => e.operation.key === 'PUT /user/interaction-limits')?.compensationAddress).toEqual([]);
    for (const e of byRequest)
      expect(
        e.reasons.some((r) => r.rule === 'compensation_address'),
        e.operation.key,
      ).toBe(true);
    for (const e of unaddressed)
      expect(
        e.reasons.some((r) => r.rule === 'compensation_unaddressed'),
        e.operation.key,
      ).toBe(true);

    // A server that answers every request 2xx with an empty JSON object: no `id` anywhere.
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(req.method === 'DELETE' ? 204 : 201, { 'content-type': 'application/json' });
        res.end(req.method === 'DELETE' ? undefined : '{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const bindings = buildToolBindings(plan, resolveConfig());
      const tools = createToolRuntime({ bindings, baseUrl: url, store: createMemoryStore(), retry: { attempts: 1 } });
      const failures: string[] = [];
      const requestOnly = new Set(byRequest.map((e) => e.operation.key));
      const lost: string[] = [];
      let undoable = 0;
      let cannotUndo = 0;
      let i = 0;
      for (const e of sagas) {
        const b = bindings.find((x) => x.operation === e.operation.key)!;
        const args = await sampleArguments(b, 7 + i++);
        if (typeof args === 'string') continue;
        const out = await tools.call(b.names.mcp, {
          ...args,
          idempotency_key: `saga-address-${String(i).padStart(6, '0')}`,
        });
        if (!out.ok) failures.push(`${e.operation.key}: ${out.error.code} ${out.error.message}`);
        else if (out.cannot_undo) {
          cannotUndo += 1;
          // Lost only if the call carried every value the address names (a sampled empty name addresses nothing).
          const input = routeArguments(b, args) as Record<string, Record<string, unknown> | undefined>;
          const carried = (e.compensationAddress ?? []).every((p) => {
            const v = input[p.in]?.[p.name];
            return (typeof v === 'string' && v !== '') || typeof v === 'number';
          });
          if (requestOnly.has(e.operation.key) && carried) lost.push(e.operation.key);
        } else undoable += 1;
      }
      console.log(
        `after a 2xx: ${undoable} done and undoable, ${cannotUndo} done and cannot be undone, ${failures.length} failed`,
      );
      expect(failures).toEqual([]);
      // Addressed by request values alone: the inverse is known whatever the response holds.
      expect(lost).toEqual([]);
      // The sample leaves one variable name empty (`""`): that call is done and cannot be undone, the rest can.
      expect(undoable).toBeGreaterThanOrEqual(byRequest.length - 1);
    } finally {
      server.close();
    }
  });
});
