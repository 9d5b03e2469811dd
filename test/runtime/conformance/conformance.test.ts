/**
 * The conformance vectors (packages/runtime/src/conformance/vectors) against all five built-in stores on real servers
 * (tables from the generated migration), against a store written in this test from the contract alone, and
 * against that store with its fencing broken. Prints one table: scenarios passed / run per store and group.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  conformanceVectors,
  formatConformanceReport,
  runStoreConformance,
  type ConformanceReport,
} from '../../../packages/runtime/src/conformance/index.js';
import { createMemoryStore, type DedupStore } from '../../../packages/runtime/src/index.js';
import { createMysqlStore } from '../../../packages/runtime/src/store/mysql.js';
import { createPostgresStore } from '../../../packages/runtime/src/store/postgres.js';
import { createRedisStore } from '../../../packages/runtime/src/store/redis/store.js';
import { createSqliteStore } from '../../../packages/runtime/src/store/sqlite.js';
import { ROOT } from '../../helpers/cli.js';
import { makeStore, STORE_KINDS, type StoreKind, type TestStore } from '../store/stores.js';
import { createMapStore } from './map-store.js';

/** Every group is held, the target groups (window from completion, typed damage) included. */
const CONTRACT_GROUPS = conformanceVectors().map((f) => f.group);

/** The stores that judge leases and expiry by the server's clock, not the caller's. */
const STORE_CLOCK: ReadonlySet<StoreKind> = new Set(['postgres', 'mysql', 'redis']);

/** A new store object per scenario on one migrated location (the runner's keys are unique per run). */
function opener(kind: StoreKind, t: TestStore): () => DedupStore {
  const l = t.location;
  switch (kind) {
    case 'memory':
      return () => createMemoryStore();
    case 'sqlite':
      return () => createSqliteStore({ filename: l.filename, table: l.table });
    case 'postgres':
      return () => createPostgresStore({ connectionString: l.connectionString, schema: l.schema, table: l.table });
    case 'mysql':
      return () => createMysqlStore({ uri: l.url, database: l.database, table: l.table });
    case 'redis':
      return () => createRedisStore({ url: l.url, prefix: l.prefix, table: l.table });
  }
}

const reports: ConformanceReport[] = [];

afterAll(() => {
  const groups = [...new Set(reports.flatMap((r) => Object.keys(r.groups)))];
  const cell = (r: ConformanceReport, g: string) => {
    const s = r.groups[g];
    if (!s) return '–';
    return s.total === 0 ? 'n/a' : `${s.passed}/${s.total}${s.notApplicable ? ` +${s.notApplicable} n/a` : ''}`;
  };
  const header = ['store', 'passed/total', 'seconds', ...groups];
  const seconds = (r: ConformanceReport) => (r.results.reduce((ms, x) => ms + x.ms, 0) / 1000).toFixed(1);
  const rows = reports.map((r) => [r.store, `${r.passed}/${r.total}`, seconds(r), ...groups.map((g) => cell(r, g))]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join(' | ');
  console.log(['conformance vectors', line(header), ...rows.map(line)].join('\n'));
  for (const r of reports.filter((r) => !r.ok)) console.log(formatConformanceReport(r));
});

describe.concurrent('conformance vectors on the built-in stores', () => {
  it.each(STORE_KINDS)('%s passes every contract scenario', { timeout: 600_000 }, async (kind) => {
    const t = await makeStore(kind, inject('pgUrl'), 'conf');
    try {
      const report = await runStoreConformance(opener(kind, t), {
        name: kind,
        capabilities: { storeClock: STORE_CLOCK.has(kind) },
      });
      reports.push(report);
      const contract = report.results.filter((r) => CONTRACT_GROUPS.includes(r.group));
      const failed = contract.filter((r) => r.status === 'failed');
      expect(failed, formatConformanceReport(report)).toEqual([]);
      expect(contract.filter((r) => r.status === 'passed').length).toBeGreaterThanOrEqual(70);
    } finally {
      await t.cleanup();
    }
  });
});

describe('a store written from the contract', () => {
  it('passes every contract scenario', { timeout: 300_000 }, async () => {
    const report = await runStoreConformance(() => createMapStore(), {
      name: 'map store (test)',
      groups: CONTRACT_GROUPS,
    });
    reports.push(report);
    expect(report.ok, formatConformanceReport(report)).toBe(true);
    // A single-process store declares no server clock: only the skewed-clock scenarios do not apply.
    const na = report.results.filter((r) => r.status === 'not-applicable');
    expect(na.map((r) => r.group)).toEqual(['target-window', 'target-window']);
    expect(na.every((r) => r.messages.join(' ').includes('storeClock'))).toBe(true);
  });

  it('fails with a clear message when complete ignores the fencing token', { timeout: 300_000 }, async () => {
    const report = await runStoreConformance(() => createMapStore({ fencing: false }), {
      name: 'map store without fencing (test)',
      groups: ['lease', 'claim', 'failure'],
    });
    reports.push(report);
    const failed = report.results.filter((r) => r.status === 'failed');
    // Exactly the three scenarios that complete with a token the row no longer has: the rest still holds.
    expect(failed.map((r) => `${r.group}/${r.name}`)).toEqual([
      "lease/stale owner's writes are refused while the new owner runs",
      'lease/one takeover wins',
      'lease/a foreign token never owns a row',
    ]);
    expect(failed[0].messages).toEqual(
      expect.arrayContaining([
        'step 5 (store.complete key "fence"): expected false (complete is fenced), got true',
        'step 14 (store.get key "fence"): expected stored result "{\\"by\\":\\"b\\"}", got "{\\"by\\":\\"a\\"}"',
      ]),
    );
    await expect(
      runStoreConformance(() => createMapStore({ fencing: false }), { groups: ['lease'], throwOnFailure: true }),
    ).rejects.toThrow(/store: 5\/8 scenarios passed[\s\S]*✗ lease\/stale owner's writes[\s\S]*complete is fenced/);
  });
});

/** Every field the runner reads, per object kind: a misspelt field in a vector would otherwise be ignored. */
const FIELDS = {
  file: ['group', 'description', 'scenarios'],
  scenario: ['name', 'description', 'requires', 'runtime', 'runtimes', 'steps', 'executions'],
  runtime: ['leaseMs', 'heartbeatMs', 'waitMs', 'pollMs', 'defaultTtlSeconds', 'maxResultBytes', 'clockSkewMs'],
  call: [
    'id',
    'background',
    'runtime',
    'key',
    'rawKey',
    'keyLength',
    'scope',
    'operation',
    'args',
    'mechanism',
    'ttlSeconds',
    'parallel',
    'staggerMs',
    'keyPerCall',
    'handler',
    'expect',
  ],
  handler: ['outcome', 'result', 'resultChars', 'resultItems', 'resultBytes', 'resultBytesAs', 'delayMs'],
  callExpect: ['executed', 'replays', 'error', 'errors', 'result', 'sameResultAsHandler', 'errorHas', 'replayable'],
  store: ['op', 'key', 'scope', 'tokenOf', 'resultText', 'operation', 'args', 'as', 'expect'],
  storeExpect: ['returns', 'absent', 'row', 'windowFromCompletionMs', 'listed', 'notListed'],
  createRuntime: ['options', 'throws'],
} as const;

function unknownFields(where: string, value: object | undefined, kind: keyof typeof FIELDS): string[] {
  const allowed: readonly string[] = FIELDS[kind];
  return Object.keys(value ?? {})
    .filter((k) => !allowed.includes(k))
    .map((k) => `${where}: unknown ${kind} field "${k}"`);
}

describe('the vector files', () => {
  it('are well formed: known fields only, unique names, awaited ids that exist, a description each', () => {
    const problems: string[] = [];
    const files = conformanceVectors();
    expect(new Set(files.map((f) => f.group)).size).toBe(files.length);
    for (const file of files) {
      problems.push(...unknownFields(file.group, file, 'file'));
      const names = file.scenarios.map((s) => s.name);
      if (new Set(names).size !== names.length) problems.push(`${file.group}: duplicate scenario names`);
      for (const s of file.scenarios) {
        const at = `${file.group}/${s.name}`;
        problems.push(...unknownFields(at, s, 'scenario'), ...unknownFields(at, s.runtime, 'runtime'));
        for (const r of Object.values(s.runtimes ?? {})) problems.push(...unknownFields(at, r, 'runtime'));
        if (!s.description) problems.push(`${at}: no description`);
        const background = new Set<string>();
        for (const step of s.steps) {
          const kinds = Object.keys(step);
          if (kinds.length !== 1) problems.push(`${at}: a step must have one kind, got ${kinds.join(', ')}`);
          if ('call' in step) {
            const c = step.call;
            problems.push(...unknownFields(at, c, 'call'), ...unknownFields(at, c.handler, 'handler'));
            problems.push(...unknownFields(at, c.expect, 'callExpect'));
            if (c.runtime !== undefined && !s.runtimes?.[c.runtime]) problems.push(`${at}: no runtime "${c.runtime}"`);
            if (c.background && c.id !== undefined) background.add(c.id);
          } else if ('store' in step) {
            problems.push(
              ...unknownFields(at, step.store, 'store'),
              ...unknownFields(at, step.store.expect, 'storeExpect'),
            );
          } else if ('createRuntime' in step) {
            problems.push(...unknownFields(at, step.createRuntime, 'createRuntime'));
            problems.push(...unknownFields(at, step.createRuntime.options, 'runtime'));
          } else if ('await' in step) {
            for (const id of [step.await].flat())
              if (!background.has(id)) problems.push(`${at}: awaits unknown "${id}"`);
          } else if (!('sleep' in step)) {
            problems.push(`${at}: unknown step ${JSON.stringify(step)}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(files.reduce((n, f) => n + f.scenarios.length, 0)).toBe(84);
  });
});

describe('the published entry point', () => {
  it('runs from plain node, ESM and CommonJS (needs `npm run build`)', { timeout: 120_000 }, () => {
    const script = (load: string) => `${load}
run(() => createMemoryStore(), { groups: ['claim'], name: 'memory' }).then((r) => console.log(JSON.stringify([r.passed, r.total])));`;
    const esm = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        script(
          "import { runStoreConformance as run } from '@idemgen/runtime/conformance';\nimport { createMemoryStore } from '@idemgen/runtime';",
        ),
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    const cjs = execFileSync(
      process.execPath,
      [
        '-e',
        script(
          "const { runStoreConformance: run } = require('@idemgen/runtime/conformance');\nconst { createMemoryStore } = require('@idemgen/runtime');",
        ),
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(JSON.parse(esm)).toEqual([10, 10]);
    expect(JSON.parse(cjs)).toEqual([10, 10]);
  });
});
