/**
 * Every key of the config is checked: a misspelled key is named with the closest known one, a value of the
 * wrong kind is an `invalid_config` at its pointer (and, through the CLI, at its line), and whatever the
 * check accepts runs through analysis and every emitter without an internal error.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveConfig, type UserConfig } from '../../src/config/types.js';
import { validateUserConfig } from '../../src/config/validate.js';
import { ConfigError, InputError } from '../../src/diagnostics/diagnostic.js';
import { configExtensions } from '../../src/emit/registry.js';
import { runPipeline } from '../../src/pipeline.js';
import { ROOT, runCli, scratchProject } from '../helpers/cli.js';

/** Every key the config knows, each with a value it accepts. */
const VALID = {
  $schema: 'https://example.com/idemgen.schema.json',
  $comment: 'every key, once',
  inputs: ['specs'],
  out: 'generated',
  artifacts: ['client', 'tools', 'sql', 'report', 'handlers'],
  owned: {
    hosts: ['orders.example.com'],
    servers: ['https://orders.example.com'],
    paths: ['/internal/**'],
    tags: ['owned'],
  },
  overrides: {
    'POST /orders': { table: 'orders', ttlSeconds: 3600, timeoutMs: 5000, keyStrategy: 'intent', impact: 'financial' },
    createOrder: { effect: 'write', mechanism: 'OP-2' },
    'POST /payments': {
      carrier: { in: 'header', name: 'Idempotency-Key', maxLength: 255, required: false },
      verification: { shape: 'refused-duplicate', statuses: [409] },
    },
  },
  dialects: ['postgres', 'sqlite'],
  sql: { schema: 'app', tablePrefix: '', dedupTable: 'idem_dedup', sagaTable: 'idem_saga' },
  severities: { key_not_resume_safe: 'off', write_without_key_mechanism: 'info' },
  heuristics: {
    writeVerbs: ['enqueue'],
    readVerbs: ['peek'],
    keyHeaders: ['X-Request-Token'],
    keyFields: ['request_token'],
    providers: [
      {
        host: 'api.example.com',
        carrier: { in: 'header', name: 'Idempotency-Key', path: [], firstSent: 'Repeatability-First-Sent' },
        ttlSeconds: 86400,
        methods: ['POST', 'patch'],
      },
    ],
  },
  tools: {
    mcpHeader: true,
    defaultTtlSeconds: 3600,
    keySource: 'intent',
    formats: ['mcp', 'openai'],
    schemaBudget: 16384,
  },
  select: { include: ['tag:orders', 'POST /*'], exclude: ['GET /health'], readOnly: false, writesOnly: false },
  serve: {
    auth: {
      issuer: 'https://issuer.example.com',
      audience: 'https://api.example.com',
      writeScope: 'orders:write',
      subjectClaim: 'sub',
      clockToleranceSeconds: 30,
      tokenTypes: ['at+jwt'],
    },
    upstreamHeaders: { bearerAuth: 'X-Upstream-Token' },
    confirm: 'irreversible',
  },
  defaultTtlSeconds: 86400,
};

const check = (raw: unknown) => validateUserConfig(raw, 'idemgen.config.json', configExtensions());

/** `[code, pointer, message, hint]` of each diagnostic. */
const rows = (raw: unknown) => check(raw).map((d) => [d.code, d.pointer, d.message, d.hint]);

describe('config shapes', () => {
  it('accepts every key with a value of its kind', () => {
    expect(check(VALID)).toEqual([]);
  });

  it('names a misspelled key with the closest known one, in every section', () => {
    const cases: [unknown, string, string][] = [
      [{ tool: {} }, '/tool', 'tools'],
      [{ tools: { defaultTtlSecnds: 5 } }, '/tools/defaultTtlSecnds', 'defaultTtlSeconds'],
      [{ sql: { tablePrefx: 'x_' } }, '/sql/tablePrefx', 'tablePrefix'],
      [{ owned: { host: ['a'] } }, '/owned/host', 'hosts'],
      [{ heuristics: { keyFeilds: ['a'] } }, '/heuristics/keyFeilds', 'keyFields'],
      [{ overrides: { 'POST /a': { mechansim: 'saga' } } }, '/overrides/POST ~1a/mechansim', 'mechanism'],
      [
        { overrides: { 'POST /a': { verification: { shape: 'refused-duplicate', status: [409] } } } },
        '/overrides/POST ~1a/verification/status',
        'statuses',
      ],
      [
        { heuristics: { providers: [{ host: 'h', carrier: { in: 'header', name: 'K', maxLenght: 9 } }] } },
        '/heuristics/providers/0/carrier/maxLenght',
        'maxLength',
      ],
      [{ serve: { confrim: 'writes' } }, '/serve/confrim', 'confirm'],
      [{ select: { exlude: [] } }, '/select/exlude', 'exclude'],
    ];
    for (const [raw, pointer, near] of cases) {
      const found = check(raw);
      expect(found, pointer).toHaveLength(1);
      expect(found[0]).toMatchObject({
        code: 'invalid_config',
        severity: 'error',
        pointer,
        hint: `did you mean "${near}"?`,
      });
      expect(found[0]!.message).toMatch(/^Unknown .*key "/);
    }
    // Nothing close: no guess.
    expect(check({ sql: { colour: 'red' } })[0]!.hint).toBeUndefined();
  });

  it('refuses values of the wrong kind that used to pass (two of them crashed a later stage)', () => {
    expect(rows({ tools: { mcpHeader: 'yes', defaultTtlSeconds: -3 } })).toEqual([
      ['invalid_config', '/tools/mcpHeader', '/tools/mcpHeader must be true or false', undefined],
      ['invalid_config', '/tools/defaultTtlSeconds', '/tools/defaultTtlSeconds must be a positive integer', undefined],
    ]);
    expect(rows({ sql: { tablePrefix: 5 } })).toEqual([
      ['invalid_config', '/sql/tablePrefix', '/sql/tablePrefix must be a string', undefined],
    ]);
    expect(rows({ heuristics: { keyFields: 'request_id' } })[0]?.[1]).toBe('/heuristics/keyFields');
    expect(rows({ overrides: { 'POST /a': { carrier: { in: 'hedaer', name: 5 } } } })).toEqual([
      [
        'invalid_config',
        '/overrides/POST ~1a/carrier/in',
        'carrier "in" must be "header", "body", "form", "query" or "argument"',
        undefined,
      ],
      [
        'invalid_config',
        '/overrides/POST ~1a/carrier/name',
        '/overrides/POST ~1a/carrier/name must be a non-empty string',
        undefined,
      ],
    ]);
    expect(
      rows({ heuristics: { providers: [{ host: 'h', carrier: { in: 'header', name: 'K' }, methods: ['PSOT'] }, {}] } }),
    ).toEqual([
      [
        'invalid_config',
        '/heuristics/providers/0/methods/0',
        'Unknown HTTP method "PSOT"; expected one of get, put, post, delete, options, head, patch, trace',
        undefined,
      ],
      ['invalid_config', '/heuristics/providers/1', 'provider needs "host" and "carrier"', undefined],
    ]);
    // `null` says "no carrier" in an override; a key with a slash is escaped in its pointer.
    expect(check({ overrides: { 'POST /a': { carrier: null } } })).toEqual([]);
    expect(rows({ serve: { upstreamHeaders: { 'a/b': 3 } } })[0]?.[1]).toBe('/serve/upstreamHeaders/a~1b');
  });

  it('a mutated config is either refused at the mutated place or runs through every emitter', async () => {
    const cwd = scratchProject(false);
    const leaves: (string | number)[][] = [];
    const walk = (v: unknown, at: (string | number)[]): void => {
      if (at.length > 0) leaves.push(at);
      if (Array.isArray(v)) for (const [i, x] of v.entries()) walk(x, [...at, i]);
      else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) walk(x, [...at, k]);
    };
    walk(VALID, []);
    const pointerOf = (path: (string | number)[]) =>
      path.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
    const at = (path: (string | number)[]): unknown =>
      path.reduce<unknown>((v, s) => (v as Record<string | number, unknown>)[s], VALID);
    // Awkward strings: empty, blank, a prototype key, separators, quotes, a line separator, non-ASCII.
    const awkward = fc.oneof(
      fc.string(),
      fc.constantFrom('', ' ', '__proto__', 'a/b', '../x', 'x"y', "it's", '\u2028', 'ÿ-é'),
    );
    /** A value of the same kind as `v` (so it passes the shape check and reaches the later stages), or any JSON. */
    const kindOf = (v: unknown): fc.Arbitrary<unknown> =>
      typeof v === 'string'
        ? awkward
        : typeof v === 'number'
          ? fc.integer({ min: -10, max: 10_000_000_000 })
          : typeof v === 'boolean'
            ? fc.boolean()
            : Array.isArray(v)
              ? fc.array(v.length > 0 ? kindOf(v[0]) : awkward, { maxLength: 3 })
              : fc.jsonValue({ maxDepth: 2 });
    const mutation = fc
      .constantFrom(...leaves)
      .chain((path) => fc.tuple(fc.constant(path), fc.oneof(kindOf(at(path)), fc.jsonValue({ maxDepth: 2 }))));
    let ran = 0;
    await fc.assert(
      fc.asyncProperty(mutation, async ([path, value]) => {
        const raw = structuredClone(VALID) as Record<string, unknown>;
        let node = raw as Record<string | number, unknown>;
        for (const s of path.slice(0, -1)) node = node[s] as Record<string | number, unknown>;
        node[path[path.length - 1]!] = value;
        const found = check(raw);
        const parent = pointerOf(path.slice(0, -1));
        for (const d of found) {
          expect(d.code).toBe('invalid_config');
          expect(d.pointer?.startsWith(parent), `${d.pointer} under ${parent}`).toBe(true);
        }
        if (found.length > 0) return;
        ran++;
        try {
          await runPipeline([join(cwd, 'specs')], resolveConfig(raw as UserConfig), cwd);
        } catch (err) {
          // A user's mistake the later stages find is still a diagnostic, never an internal error.
          if (!(err instanceof InputError || err instanceof ConfigError)) throw err;
        }
      }),
      { numRuns: 300, seed: Number(process.env.CONFIG_SEED ?? 20261204) },
    );
    expect(ran).toBeGreaterThan(10);
  }, 120_000);
});

describe('config problems through the CLI', () => {
  it('prints each at its line and column in a JSON config, and a syntax error at its place', async () => {
    const dir = scratchProject(false);
    writeFileSync(
      join(dir, 'idemgen.config.json'),
      '{\n  "tools": {\n    "formats": ["mcp"],\n    "mcpHeadr": true\n  },\n  "sql": { "tablePrefix": 5 }\n}\n',
    );
    const run = await runCli(['check'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^\s+4:5\s+error\s+Unknown tools key "mcpHeadr"/m);
    expect(run.stderr).toMatch(/hint: did you mean "mcpHeader"\?/);
    expect(run.stderr).toMatch(/^\s+6:12\s+error\s+\/sql\/tablePrefix must be a string/m);
    expect(run.stderr).not.toMatch(/internal error/);
    writeFileSync(join(dir, 'idemgen.config.json'), '{\n  "tools": {\n    "formats": ["mcp",]\n  }\n}\n');
    const broken = await runCli(['check'], dir);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^\s+3:23\s+error\s+Cannot parse idemgen\.config\.json/m);
  });

  it('places a YAML config problem at its line too', async () => {
    const dir = scratchProject(false);
    writeFileSync(join(dir, 'idemgen.config.yaml'), 'inputs: [specs]\nowned:\n  host: [orders.example.com]\n');
    const run = await runCli(['generate'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^\s+3:3\s+error\s+Unknown owned key "host"/m);
  });

  it('a spec or tool list given as the config is one error that says so, not one per key', async () => {
    const dir = scratchProject(false);
    for (const [file, what] of [
      ['specs/payments.openapi.yaml', 'an OpenAPI 3.1.0 document'],
      ['specs/inventory.swagger.json', 'a Swagger 2.0 document'],
      ['specs/agent-tools.mcp.json', 'a tool list'],
    ]) {
      const run = await runCli(['generate', '--config', file], dir);
      expect(run.code, file).toBe(2);
      expect(run.stderr, file).toContain(`This is ${what}, not an idemgen config  invalid_config`);
      expect(run.stderr, file).toContain('hint: pass it as an input: idemgen generate <file>');
      expect(run.stderr.match(/invalid_config/g), file).toHaveLength(1);
    }
    // A config with a key named like a spec's is still checked key by key.
    expect(validateUserConfig({ openapi: 3, inputs: ['specs'] }, 'c.json').map((d) => d.message)).toEqual([
      'Unknown config key "openapi"',
    ]);
  });

  it('warns about an override that names no operation of the config inputs, not of other inputs', async () => {
    const dir = scratchProject(false);
    writeFileSync(
      join(dir, 'idemgen.config.json'),
      JSON.stringify({ inputs: ['specs'], overrides: { 'POST /order': { mechanism: 'fail-closed' } } }, null, 2),
    );
    const run = await runCli(['generate'], dir);
    expect(run.code).toBe(0);
    const warning =
      /^\s+6:5\s+warning\s+config overrides\["POST \/order"\] names no operation.*override_matches_nothing/m;
    expect(run.stderr + run.stdout).toMatch(warning);
    expect(run.stderr + run.stdout).toMatch(/hint: did you mean "POST \/orders"\?/);
    // The same config over another spec: the override may well be for the config's own inputs.
    const other = await runCli(['audit', join(ROOT, 'specs', 'payments.openapi.yaml'), '--fail-on', 'none'], dir);
    expect(other.stdout + other.stderr).not.toMatch(/override_matches_nothing/);
  });

  it('warns about a severity for a rule that does not exist, and not about any real rule', async () => {
    const dir = scratchProject(false);
    const severities = {
      write_without_key_mechanim: 'error',
      key_not_resume_safe: 'off',
      key_generated_in_tool: 'warning',
      read_only_hint_contradicts_name: 'warning',
      override_matches_nothing: 'off',
    };
    writeFileSync(join(dir, 'idemgen.config.json'), JSON.stringify({ inputs: ['specs'], severities }, null, 2));
    const run = await runCli(['generate'], dir);
    expect(run.code).toBe(0);
    const text = run.stdout + run.stderr;
    expect(text).toMatch(
      /^\s+6:5\s+warning\s+config severities\["write_without_key_mechanim"\] names no rule.*severity_rule_unknown/m,
    );
    expect(text).toMatch(/hint: did you mean "write_without_key_mechanism"\?/);
    expect(text.match(/severity_rule_unknown/g)).toHaveLength(1);
  });
});
