/**
 * What a new user meets when something is off, each with its exact output: a misspelled command or option gets
 * the closest real one (exit 2); a store error is one line naming the package to install or the server that did
 * not answer; `serve` asks only for credentials no tool can do without, refuses a selection that leaves nothing
 * before any client connects, states the key rule in code mode's instructions and shows in `invoke_tool`'s
 * schema where the key goes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { stdioClient } from '../emit/mcp/client.js';

const BIN = join(ROOT, 'bin/idemgen.js');
const HIDE = join(ROOT, 'test/helpers/hide-packages.mjs');
const tmp = () => mkdtempSync(join(tmpdir(), 'idemgen-manners-'));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI as a user runs it; `hide` makes driver packages unresolvable, as in an app without them. */
function idemgen(
  args: string[],
  opts: { cwd?: string; hide?: string[]; env?: Record<string, string> } = {},
): Promise<Run> {
  const pre = opts.hide !== undefined ? ['--import', HIDE] : [];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...pre, BIN, ...args], {
      cwd: opts.cwd ?? tmp(),
      env: {
        ...process.env,
        CI: 'true',
        NO_COLOR: '1',
        ...(opts.hide ? { IDEMGEN_HIDE_PACKAGES: opts.hide.join(',') } : {}),
        ...opts.env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('misspelled commands and options', () => {
  it('`idemgen genrate` → did you mean generate, exit 2', async () => {
    const r = await idemgen(['genrate']);
    expect(r.stderr).toBe(
      'Unknown command "genrate": did you mean idemgen generate?\nRun `idemgen --help` for usage.\n',
    );
    expect(r.code).toBe(2);
  });

  it('`idemgen generate --ouput x` → did you mean --out, exit 2', async () => {
    const r = await idemgen(['generate', '--ouput', 'x']);
    expect(r.stderr).toBe(
      'Unknown option --ouput for idemgen generate: did you mean --out?\nRun `idemgen generate --help` for its options.\n',
    );
    expect(r.code).toBe(2);
  });

  it('`idemgen reconcile --stroe …` names --store, not "missing required argument"', async () => {
    const r = await idemgen(['reconcile', '--stroe', 'sqlite:x.db']);
    expect(r.stderr).toBe(
      'Unknown option --stroe for idemgen reconcile: did you mean --store?\nRun `idemgen reconcile --help` for its options.\n',
    );
    expect(r.code).toBe(2);
  });

  it('an unknown command with nothing close lists the commands', async () => {
    const r = await idemgen(['xyzzy']);
    expect(r.stderr).toBe(
      'Unknown command "xyzzy". The commands are generate, audit, validate, check, serve, reconcile, prune, migrate, init.\nRun `idemgen --help` for usage.\n',
    );
    expect(r.code).toBe(2);
  });
});

describe('store errors: one line, naming the package or the server', () => {
  it('redis:// without the redis package: install it (the URL is not called invalid)', async () => {
    const r = await idemgen(['reconcile', '--store', 'redis://127.0.0.1:6379'], { hide: ['redis'] });
    expect(r.stderr).toBe(
      'redis:// stores need the redis package, which is not installed: npm i redis (store_driver_missing)\n',
    );
    expect(r.code).toBe(2);
  });

  it('migrate --store mysql:// without mysql2: one line, no "Cannot find module" stack', async () => {
    const r = await idemgen(['migrate', '--store', 'mysql://root@127.0.0.1:3306/app'], { hide: ['mysql2'] });
    expect(r.stderr).toBe(
      'mysql:// stores need the mysql2 package, which is not installed: npm i mysql2 (store_driver_missing)\n',
    );
    expect(r.code).toBe(2);
  });

  it('prune --store postgres:// and sqlite: without their drivers', async () => {
    const pg = await idemgen(['prune', '--store', 'postgres://u@127.0.0.1:5432/db'], { hide: ['pg'] });
    expect(pg.stderr).toBe(
      'postgres:// stores need the pg package, which is not installed: npm i pg (store_driver_missing)\n',
    );
    const cwd = tmp();
    writeFileSync(join(cwd, 'idem.db'), '');
    const sqlite = await idemgen(['prune', '--store', 'sqlite:idem.db'], { cwd, hide: ['better-sqlite3'] });
    expect(sqlite.stderr).toBe(
      'sqlite: stores need the better-sqlite3 package, which is not installed: npm i better-sqlite3 (store_driver_missing)\n',
    );
    expect([pg.code, sqlite.code]).toEqual([2, 2]);
  });

  it('a server that does not answer is named with its host and port (never the password)', async () => {
    const r = await idemgen(['prune', '--store', 'postgres://u:hunter2@127.0.0.1:9/db?connectTimeoutMs=500']);
    expect(r.stderr).toBe(
      'the PostgreSQL server at 127.0.0.1:9 did not answer (connection refused): start it, or pass the right --store URL (store_unavailable)\n',
    );
    const redis = await idemgen(['reconcile', '--store', 'redis://127.0.0.1:9?connectTimeoutMs=500']);
    expect(redis.stderr).toBe(
      'the Redis/Valkey server at 127.0.0.1:9 did not answer (connection refused): start it, or pass the right --store URL (store_unavailable)\n',
    );
    expect([r.code, redis.code]).toEqual([2, 2]);
  }, 30_000);
});

const TWO_SCHEMES = {
  openapi: '3.0.3',
  info: { title: 'Notes', version: '1' },
  servers: [{ url: 'https://notes.example.test' }],
  components: {
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' }, basicAuth: { type: 'http', scheme: 'basic' } },
  },
  security: [{ bearerAuth: [] }, { basicAuth: [] }],
  paths: {
    '/notes': {
      get: { operationId: 'listNotes', tags: ['notes'], responses: { '200': { description: 'ok' } } },
      post: {
        operationId: 'createNote',
        tags: ['notes'],
        requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
        responses: { '201': { description: 'created' } },
      },
    },
  },
};

/** `serve` over stdio until its start-up line, then stdin closed: stderr and the exit code. */
async function serveStart(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'serve', ...args], {
      cwd: tmp(),
      env: { ...process.env, CI: 'true', NO_COLOR: '1', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      if (stderr.includes('over stdio')) child.stdin.end();
    });
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('serve', () => {
  it('bearer credentials satisfy operations whose alternatives are bearer OR basic: no "no credentials" warning', async () => {
    const dir = tmp();
    const spec = join(dir, 'notes.json');
    writeFileSync(spec, JSON.stringify(TWO_SCHEMES));
    const store = `sqlite:${join(dir, 's.db')}`;
    const withBearer = await serveStart([spec, '--store', store], { IDEMGEN_AUTH_BEARERAUTH: 'tok_1234567890' });
    expect(withBearer.stderr).toContain('idemgen serve: notes: 2 tools → https://notes.example.test\n');
    expect(withBearer.stderr).not.toContain('no credentials');
    // Neither set: both alternatives are named, once.
    const none = await serveStart([spec, '--store', store]);
    expect(none.stderr).toContain(
      'idemgen serve: notes: 2 tools → https://notes.example.test; no credentials for basicAuth, bearerAuth (set IDEMGEN_AUTH_BASICAUTH, IDEMGEN_AUTH_BEARERAUTH)\n',
    );
  }, 60_000);

  it('--dynamic with a selection that leaves no tools refuses to start (exit 2) before any client connects', async () => {
    const dir = tmp();
    const spec = join(dir, 'notes.json');
    writeFileSync(spec, JSON.stringify(TWO_SCHEMES));
    for (const mode of ['--dynamic', '--code']) {
      const r = await serveStart([spec, mode, '--include', 'tag:billing', '--store', `sqlite:${join(dir, 's.db')}`]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe(''); // no initialize answer, no tool list: the server never accepted the client
      expect(r.stderr).toBe(
        'idemgen serve: no tools to serve: the selection removed all 2 operations; the tags are "notes"; select by operation key or name instead, e.g. --include "GET /notes*" or --include "listNotes"\n',
      );
    }
  }, 60_000);

  it('code mode states the key rule in the MCP instructions; --dynamic shows where the key goes', async () => {
    const dir = tmp();
    const spec = join(dir, 'notes.json');
    writeFileSync(spec, JSON.stringify(TWO_SCHEMES));
    const code = await stdioClient([
      'test/helpers/idemgen-src.ts',
      'serve',
      spec,
      '--code',
      '--store',
      `sqlite:${join(dir, 'c.db')}`,
    ]);
    try {
      expect(code.getInstructions()).toMatch(/^execute takes a required idempotency_key for the whole run\./);
      expect(code.getInstructions()).toContain('send the SAME key, with the same code, when you retry it');
    } finally {
      await code.close();
    }
    const dyn = await stdioClient([
      'test/helpers/idemgen-src.ts',
      'serve',
      spec,
      '--dynamic',
      '--store',
      `sqlite:${join(dir, 'd.db')}`,
    ]);
    try {
      const invoke = (await dyn.listTools()).tools.find((t) => t.name === 'invoke_tool')!;
      const args = (
        invoke.inputSchema.properties as Record<string, { description: string; properties: Record<string, unknown> }>
      ).arguments!;
      expect(args.description).toContain('"idempotency_key": "…"');
      expect(args.properties.idempotency_key).toMatchObject({ type: 'string', minLength: 16, maxLength: 255 });
    } finally {
      await dyn.close();
    }
  }, 90_000);
});
