import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPgBin, provision, type Host, type ServicePiece } from './provision.js';

/** A piece that appears once `apt-get install <pkg>` "ran" (the fake host flips it). */
function piece(name: string, present: boolean): ServicePiece & { installed: boolean } {
  const p = {
    what: `${name} server`,
    aptPackage: `${name}-server`,
    envVar: `X_${name.toUpperCase()}`,
    installed: present,
    locate: () => (p.installed ? `/usr/sbin/${name}d` : undefined),
  };
  return p;
}

function host(over: Partial<Host>, pieces: ReturnType<typeof piece>[]): Host & { calls: string[]; lines: string[] } {
  const calls: string[] = [];
  const lines: string[] = [];
  return {
    isRoot: true,
    hasApt: true,
    dryRun: false,
    calls,
    lines,
    run: (cmd, args, env) => {
      calls.push(`${env?.DEBIAN_FRONTEND ?? ''} ${cmd} ${args.join(' ')}`.trim());
      if (args[0] === 'install') for (const p of pieces) if (args.includes(p.aptPackage)) p.installed = true;
    },
    log: (l) => lines.push(l),
    ...over,
  };
}

describe('test services: provisioning what is missing', () => {
  it('present binaries: nothing is installed', () => {
    const pieces = [piece('maria', true)];
    const h = host({}, pieces);
    expect(provision(pieces, h)).toEqual(['/usr/sbin/mariad']);
    expect(h.calls).toEqual([]);
  });

  it('Debian as root: apt-get update, then one install of every missing package, non-interactive', () => {
    const pieces = [piece('pg', true), piece('maria', false), piece('other', false)];
    const h = host({}, pieces);
    expect(provision(pieces, h)).toEqual(['/usr/sbin/pgd', '/usr/sbin/mariad', '/usr/sbin/otherd']);
    expect(h.calls).toEqual([
      'noninteractive apt-get update -qq',
      'noninteractive apt-get install -y -qq maria-server other-server',
    ]);
  });

  it('not root, or no apt: one line naming the package, nothing run', () => {
    for (const over of [{ isRoot: false }, { hasApt: false }]) {
      const pieces = [piece('maria', false)];
      const h = host(over, pieces);
      let err: Error | undefined;
      try {
        provision(pieces, h);
      } catch (e) {
        err = e as Error;
      }
      expect(err?.message).toMatch(
        /^maria server not found \(.*\): install it with `apt-get install -y maria-server`.* X_MARIA /,
      );
      expect(err?.message).not.toContain('\n');
      expect(err?.stack).toBe(`Error: ${err?.message}`);
      expect(h.calls).toEqual([]);
    }
  });

  it('dry run: logs the apt commands, runs none, and still fails naming the package', () => {
    const pieces = [piece('maria', false)];
    const h = host({ dryRun: true }, pieces);
    expect(() => provision(pieces, h)).toThrow(/maria server not found \(dry run: apt was not run\)/);
    expect(h.lines).toEqual(['would run: apt-get update -qq', 'would run: apt-get install -y -qq maria-server']);
    expect(h.calls).toEqual([]);
  });

  it('apt ran but the binary is still missing: says so', () => {
    const pieces = [piece('maria', false)];
    const h = host({ run: () => undefined }, pieces);
    expect(() => provision(pieces, h)).toThrow(/still missing after apt-get install maria-server/);
  });

  it('finds the newest PostgreSQL major ≥ 15', () => {
    const root = mkdtempSync(join(tmpdir(), 'idemgen-pgroot-'));
    for (const major of ['13', '15', '16']) {
      mkdirSync(join(root, major, 'bin'), { recursive: true });
      writeFileSync(join(root, major, 'bin', 'initdb'), '');
    }
    mkdirSync(join(root, '17'));
    const saved = process.env.IDEMGEN_PG_BIN;
    delete process.env.IDEMGEN_PG_BIN;
    try {
      expect(findPgBin(root)).toBe(join(root, '16', 'bin'));
      expect(findPgBin(join(root, 'none'))).toBeUndefined();
    } finally {
      if (saved !== undefined) process.env.IDEMGEN_PG_BIN = saved;
    }
  });
});
