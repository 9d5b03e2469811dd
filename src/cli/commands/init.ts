/**
 * `idemgen init`: a commented config, and generation wired where it will actually run — a `prebuild`
 * script only when there is a `build` script for npm to run it before; otherwise a `generate` script and
 * a line saying how to hook it in.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { findConfigFile } from '../../config/load.js';
import { ConfigError, diagnostic, InputError } from '../../diagnostics/diagnostic.js';
import { makeSource, sourceProblem } from '../../load/source.js';
import type { CliContext } from '../context.js';
import { isInstalled, MCP_SDK } from '../peers.js';

export const INIT_CONFIG = `# idemgen configuration (all keys: README.md of the idemgen package, section Configuration)
# Paths are relative to this file.

# Spec files or folders: OpenAPI 2.0/3.0/3.1 (JSON/YAML) and MCP/OpenAI/Anthropic tool lists.
inputs:
  - specs
#  - { path: vendor/stripe.yaml, apiName: stripe }  # apiName: the client is createStripeClient, files stripe.*
# Where generated code goes. idemgen owns this folder: it is replaced as a whole on each run, so generate
# refuses a folder it did not write (your files, the specs, the project).
out: generated
# Which artifacts to emit. Without this key, all of them (new ones included when idemgen adds them):
# client, handlers, mcp, report, sql, tools. Name a subset to emit only those (mcp needs handlers).
# artifacts: [client, handlers, mcp, report, sql, tools]
# SQL dialects for the dedup migrations.
dialects: [postgres, sqlite, mysql]

# APIs whose store you own: deduplicated in your database (dedup-table, content-address, unique-insert;
# docs/concepts.md#mechanisms).
# owned:
#   hosts: [internal.example.com]
#   paths: ["/internal/**"]
#   tags: [internal]

# Per-operation decisions, by operation key ("POST /v1/charges", "tool:send_email").
# overrides:
#   "POST /search": { effect: read }                # a POST used as a query
#   "POST /orders": { table: orders }              # unique-insert: unique key column on your table
#   "POST /wires": { mechanism: saga, compensation: "POST /wires/{id}/recall" }

# Which operations become tools (tools, handlers and mcp artifacts; idemgen serve): tags or
# operation-key globs, read-only or writes-only.
# select:
#   include: ["tag:Messages", "POST /v1/customers*"]
#   exclude: ["DELETE *"]
#   writesOnly: true

# Audit rule severities: error | warning | info | off.
# severities:
#   write_without_key_mechanism: error
`;

/** The config with every artifact but mcp named, and how to add it. */
function withoutMcp(config: string): string {
  const line = '# artifacts: [client, handlers, mcp, report, sql, tools]\n';
  if (!config.includes(line)) throw new Error('init: the artifacts line of the config template moved');
  return config.replace(
    line,
    `# mcp (generated/mcp/, an MCP server module per API) needs ${MCP_SDK}, not installed here:\n# npm install ${MCP_SDK}, then add mcp below.\nartifacts: [client, handlers, report, sql, tools]\n`,
  );
}

/** package.json's text and content, or undefined when there is none; a file that does not parse stops init. */
function readPackageJson(pkgPath: string): { text: string; pkg: { scripts?: Record<string, string> } } | undefined {
  if (!existsSync(pkgPath)) return undefined;
  const text = readFileSync(pkgPath, 'utf8');
  const source = makeSource(pkgPath, 'package.json', text);
  const problem = sourceProblem(source, 'error');
  const pkg = source.parsed?.ok === true ? source.parsed.value : undefined;
  if (problem !== undefined || typeof pkg !== 'object' || pkg === null || Array.isArray(pkg))
    throw new InputError([
      problem ?? diagnostic('invalid_json', 'error', 'package.json is not a JSON object', { file: 'package.json' }),
    ]);
  const scripts = (pkg as { scripts?: unknown }).scripts;
  if (scripts !== undefined && (typeof scripts !== 'object' || scripts === null || Array.isArray(scripts)))
    throw new InputError([
      diagnostic('invalid_json', 'error', 'package.json: "scripts" is not an object', { file: 'package.json' }),
    ]);
  return { text, pkg: pkg as { scripts?: Record<string, string> } };
}

/** A free name beside `file` for its backup: `<file>.bak`, else `<file>.bak.1`, `.bak.2`, … */
function backupName(file: string): string {
  if (!existsSync(`${file}.bak`)) return `${file}.bak`;
  let n = 1;
  while (existsSync(`${file}.bak.${n}`)) n += 1;
  return `${file}.bak.${n}`;
}

/**
 * Everything init could refuse is checked before it writes anything: an existing config (without --force)
 * and a package.json it cannot read. With --force the existing config is kept as `<name>.bak` (a config
 * of another name, idemgen.config.json above all, would otherwise still win over the new YAML file).
 */
export function initCommand(ctx: CliContext, args: { force?: boolean }): number {
  const existing = findConfigFile(ctx.cwd);
  if (existing && !args.force) {
    throw new ConfigError([
      diagnostic(
        'config_exists',
        'error',
        `A config already exists: ${basename(existing)} (init --force keeps it as ${basename(backupName(existing))} and writes a fresh idemgen.config.yaml).`,
        { file: basename(existing) },
      ),
    ]);
  }
  const pkgPath = join(ctx.cwd, 'package.json');
  const found = readPackageJson(pkgPath);
  // `init && generate` must work: the default input folder has to exist.
  const specs = join(ctx.cwd, 'specs');
  if (!existsSync(specs)) {
    mkdirSync(specs);
    ctx.logger.out('created specs/ — put your OpenAPI files and tool definitions there');
  }
  if (existing) {
    const backup = backupName(existing);
    renameSync(existing, backup);
    ctx.logger.out(`kept the previous config as ${basename(backup)}`);
  }
  writeConfig(ctx);
  if (found === undefined) {
    ctx.logger.info('No package.json here: add `idemgen generate` to your build yourself.');
    return 0;
  }
  return wireScripts(ctx, pkgPath, found.text, found.pkg);
}

/** Writes idemgen.config.yaml: the MCP modules import the MCP SDK, an optional peer, so mcp is on only where it is installed. */
function writeConfig(ctx: CliContext): void {
  const sdk = isInstalled(ctx.cwd, MCP_SDK);
  writeFileSync(join(ctx.cwd, 'idemgen.config.yaml'), sdk ? INIT_CONFIG : withoutMcp(INIT_CONFIG));
  ctx.logger.out('wrote idemgen.config.yaml');
  if (!sdk)
    ctx.logger.out(
      `left the mcp artifact (an MCP server module per API) out of artifacts: it needs ${MCP_SDK} — npm install ${MCP_SDK}, then add mcp to artifacts in idemgen.config.yaml`,
    );
}

/** Runs generation where npm will run it: `prebuild` beside a build script, else a `generate` script. */
function wireScripts(
  ctx: CliContext,
  pkgPath: string,
  text: string,
  pkg: { scripts?: Record<string, string> },
): number {
  const scripts = pkg.scripts ?? {};
  if (Object.values(scripts).some((s) => typeof s === 'string' && s.includes('idemgen generate'))) {
    ctx.logger.info('package.json already runs idemgen generate.');
    return 0;
  }
  const save = (): void =>
    writeFileSync(pkgPath, `${JSON.stringify({ ...pkg, scripts }, null, /^(\s+)"/m.exec(text)?.[1] ?? '  ')}\n`);
  if (scripts.build !== undefined) {
    // npm runs `prebuild` only before `npm run build`: with a build script it is the hook that fires.
    scripts.prebuild = scripts.prebuild ? `idemgen generate && ${scripts.prebuild}` : 'idemgen generate';
    save();
    ctx.logger.out('added "prebuild": "idemgen generate" to package.json (runs before npm run build)');
    return 0;
  }
  if (scripts.generate === undefined) {
    scripts.generate = 'idemgen generate';
    save();
    ctx.logger.out('added "generate": "idemgen generate" to package.json');
  }
  ctx.logger.out(
    'package.json has no "build" script, so no prebuild hook was added: run `npx idemgen generate` (or `npm run generate`) before you compile, or add "prebuild": "idemgen generate" next to your build script.',
  );
  return 0;
}
