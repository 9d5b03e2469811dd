/**
 * A client method's `@see ../report/audit.md#…` must land on its row: both emitters take the anchors from
 * `operationAnchors` over the whole plan, unique across files and after slugging.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/types.js';
import { operationAnchors } from '../../src/emit/audit-anchors.js';
import { emitClient } from '../../src/emit/client/index.js';
import { emitReport } from '../../src/emit/report/index.js';
import { fixturePlans } from './client/helpers/fixture-plans.js';

describe('operationAnchors', () => {
  it('slugs the key and numbers collisions in (file, key) order, whatever the input order', () => {
    const ops = [
      { file: 'b.yaml', key: 'POST /a-b' },
      { file: 'b.yaml', key: 'POST /a/b' },
      { file: 'a.yaml', key: 'POST /a_b' },
      { file: 'a.yaml', key: 'tool:<script>' },
    ];
    const anchors = operationAnchors(ops);
    expect([...operationAnchors([...ops].reverse())]).toEqual([...anchors]);
    expect(ops.map((o) => anchors.get(`${o.file}\u0000${o.key}`))).toEqual([
      'post-a-b-2',
      'post-a-b-3',
      'post-a-b',
      'tool-script',
    ]);
  });
});

describe('client @see links', () => {
  it('each points at a row anchor of the report written beside it, and none without the report', async () => {
    const plan = { apis: await fixturePlans(), diagnostics: [] };
    const report = emitReport(plan, resolveConfig()).files.find((f) => f.path === 'report/audit.md')!.contents;
    const clients = emitClient(plan, resolveConfig()).files;
    const links = clients.flatMap((f) =>
      [...f.contents.matchAll(/@see \.\.\/report\/audit\.md#([a-z0-9-]+)$/gm)].map((m) => m[1]!),
    );
    expect(links.length).toBeGreaterThan(10);
    for (const id of links) expect(report).toContain(`<a id="${id}"></a>`);
    expect(new Set(links).size).toBe(links.length);
    const withoutReport = emitClient(plan, resolveConfig({ artifacts: ['client'] })).files;
    expect(withoutReport.some((f) => f.contents.includes('report/audit.md'))).toBe(false);
  });
});
