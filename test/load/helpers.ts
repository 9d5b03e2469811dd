import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A fresh temp folder with the given files (relative path → content). */
export function makeTree(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'idemgen-load-'));
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, content);
  }
  return dir;
}

export const MINI_OPENAPI = JSON.stringify(
  {
    openapi: '3.0.3',
    info: { title: 'Mini', version: '1' },
    paths: { '/things': { post: { responses: { '201': { description: 'ok' } } } } },
  },
  null,
  2,
);
