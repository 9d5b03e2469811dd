/**
 * Entry point of the stdio child process: `node --import tsx test/runtime/mcp/server-fixture.ts`.
 * Env: IDEMGEN_SQLITE (dedup database, migrated by the test), IDEMGEN_EFFECTS (one line per side effect),
 * IDEMGEN_DELAY_MS (how long the side effect takes after it happened).
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createSqliteStore } from '../../../packages/runtime/src/store/sqlite.js';
import { createFixtureServer } from './fixture-server.js';

const effectsFile = process.env.IDEMGEN_EFFECTS as string;
const store = createSqliteStore({ filename: process.env.IDEMGEN_SQLITE as string });

function recordEffect(args: Record<string, unknown>): number {
  appendFileSync(effectsFile, `${JSON.stringify({ pid: process.pid, args })}\n`);
  return readFileSync(effectsFile, 'utf8').trim().split('\n').length;
}

const server = createFixtureServer({ store, recordEffect, delayMs: Number(process.env.IDEMGEN_DELAY_MS ?? 0) });
await server.connect(new StdioServerTransport());
