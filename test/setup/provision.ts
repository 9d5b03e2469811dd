/**
 * What the test services need on the machine, and how a missing piece is provided: on Debian/Ubuntu as
 * root the README's `npm test` installs it from apt (a fresh CI box needs no extra step); anywhere else
 * it stops with one line naming what to install. `IDEMGEN_PROVISION=dry-run` prints the apt commands
 * instead of running them (how the provisioning path is exercised on a machine that already has both).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

export interface ServicePiece {
  /** What the error line calls it. */
  what: string;
  /** The apt package that provides it. */
  aptPackage: string;
  /** Environment variable that overrides where it is looked for. */
  envVar: string;
  /** Where it is found now (undefined when it is not). */
  locate: () => string | undefined;
}

export interface Host {
  isRoot: boolean;
  hasApt: boolean;
  dryRun: boolean;
  run: (cmd: string, args: string[], env?: NodeJS.ProcessEnv) => void;
  log: (line: string) => void;
}

export function realHost(): Host {
  return {
    isRoot: process.getuid?.() === 0,
    hasApt: existsSync('/usr/bin/apt-get') && existsSync('/etc/debian_version'),
    dryRun: process.env.IDEMGEN_PROVISION === 'dry-run',
    run: (cmd, args, env) =>
      execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } }),
    log: (line) => process.stderr.write(`${line}\n`),
  };
}

/** The newest installed PostgreSQL ≥ 15 (Debian keeps each major under /usr/lib/postgresql/<major>/bin). */
export function findPgBin(root = '/usr/lib/postgresql'): string | undefined {
  if (process.env.IDEMGEN_PG_BIN)
    return existsSync(`${process.env.IDEMGEN_PG_BIN}/initdb`) ? process.env.IDEMGEN_PG_BIN : undefined;
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .map(Number)
    .filter((n) => n >= 15 && existsSync(`${root}/${n}/bin/initdb`))
    .sort((a, b) => b - a);
  return majors.length > 0 ? `${root}/${majors[0]}/bin` : undefined;
}

export const MARIADB: ServicePiece = {
  what: 'MariaDB server (mariadbd)',
  aptPackage: 'mariadb-server',
  envVar: 'IDEMGEN_MARIADBD',
  locate: () => {
    const path = process.env.IDEMGEN_MARIADBD ?? '/usr/sbin/mariadbd';
    return existsSync(path) ? path : undefined;
  },
};

export const REDIS: ServicePiece = {
  what: 'Redis server (redis-server)',
  aptPackage: 'redis-server',
  envVar: 'IDEMGEN_REDIS_SERVER',
  locate: () => {
    const path = process.env.IDEMGEN_REDIS_SERVER ?? '/usr/bin/redis-server';
    return existsSync(path) ? path : undefined;
  },
};

export const POSTGRES: ServicePiece = {
  what: 'PostgreSQL ≥ 15 server binaries (initdb, pg_ctl)',
  aptPackage: 'postgresql',
  envVar: 'IDEMGEN_PG_BIN',
  locate: findPgBin,
};

/** Debian's headless-capable Chromium, driven by playwright-core in the HTML report's browser test. */
export const CHROMIUM: ServicePiece = {
  what: 'Chromium browser (chromium)',
  aptPackage: 'chromium',
  envVar: 'IDEMGEN_CHROMIUM',
  locate: () => {
    const path = process.env.IDEMGEN_CHROMIUM ?? '/usr/bin/chromium';
    return existsSync(path) ? path : undefined;
  },
};

/** One line: what is missing and the command that fixes it (no stack: this is a setup problem, not a bug). */
function missingError(piece: ServicePiece, why: string): Error {
  const err = new Error(missingLine(piece, why));
  err.stack = `Error: ${err.message}`;
  return err;
}

function missingLine(piece: ServicePiece, why: string): string {
  return `${piece.what} not found (${why}): install it with \`apt-get install -y ${piece.aptPackage}\` (or your OS's package) or point ${piece.envVar} at it — the tests never skip a missing service.`;
}

/** Returns where each piece is, installing the missing ones with apt when this is Debian and we are root. */
export function provision(pieces: ServicePiece[], host: Host): string[] {
  const missing = pieces.filter((p) => p.locate() === undefined);
  if (missing.length > 0) {
    if (!host.hasApt || !host.isRoot) {
      throw missingError(
        missing[0],
        host.hasApt ? 'not root, so not installing it from apt' : 'no apt-get on this machine',
      );
    }
    const packages = missing.map((p) => p.aptPackage);
    const steps: [string, string[]][] = [
      ['apt-get', ['update', '-qq']],
      ['apt-get', ['install', '-y', '-qq', ...packages]],
    ];
    for (const [cmd, args] of steps) {
      host.log(`${host.dryRun ? 'would run' : 'test setup: running'}: ${cmd} ${args.join(' ')}`);
      if (!host.dryRun) host.run(cmd, args, { DEBIAN_FRONTEND: 'noninteractive' });
    }
  }
  return pieces.map((p) => {
    const at = p.locate();
    if (at === undefined)
      throw missingError(
        p,
        host.dryRun ? 'dry run: apt was not run' : `still missing after apt-get install ${p.aptPackage}`,
      );
    return at;
  });
}
