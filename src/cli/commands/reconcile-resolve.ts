/**
 * `idemgen reconcile --resolve KEY --as failed|completed|not-executed`: record an operator's decision
 * on an unknown outcome (who, when, why) in the row. `--result` gives the result retries replay for
 * `--as completed`, as JSON text or `@file`.
 */
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { resolve as resolvePath } from 'node:path';
import { resolveUnknown } from '@idemgen/runtime';
import type { CliContext } from '../context.js';
import { storeError, withStore, type ReconcileArgs } from './store.js';

function readResult(ctx: CliContext, text: string | undefined): unknown {
  if (text === undefined) return null;
  let source = text;
  if (text.startsWith('@')) {
    const file = resolvePath(ctx.cwd, text.slice(1));
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      throw storeError('result_file_not_found', `Cannot read --result file ${file}`);
    }
  }
  try {
    return JSON.parse(source);
  } catch (err) {
    throw storeError(
      'invalid_result_json',
      `--result is not JSON: ${(err as Error).message}`,
      'Pass the JSON the call returned, e.g. --result \'{"id":"ch_1"}\' or --result @result.json',
    );
  }
}

function who(args: ReconcileArgs): string {
  if (args.by) return args.by;
  try {
    return process.env.USER ?? userInfo().username;
  } catch {
    return 'unknown';
  }
}

const WHY: Record<string, string> = {
  'not-found': 'no row has this key (check --scope)',
  'not-pending': 'the row is not pending any more (already completed, failed or resolved)',
  'lease-live': 'an attempt still holds the row (its lease has not expired); wait or stop that process first',
  unreadable:
    'nothing of the row reads (no operation or arguments to replay against); use --as failed or --as not-executed to free the key',
};

export async function resolveCommand(ctx: CliContext, args: ReconcileArgs): Promise<number> {
  const key = args.resolve as string;
  const as = args.as;
  const reason = args.reason;
  if (!as) throw storeError('resolve_needs_as', '--resolve needs --as failed|completed|not-executed');
  if (!reason)
    throw storeError(
      'resolve_needs_reason',
      '--resolve needs --reason "…": why you decided this (it is stored with the row)',
    );
  if (args.result !== undefined && as !== 'completed')
    throw storeError('result_needs_completed', '--result only goes with --as completed');
  const result = readResult(ctx, args.result);
  const outcome = await withStore(ctx, args.store, (store) =>
    resolveUnknown(store, { key, scope: args.scope ?? '', as, result, by: who(args), reason }),
  );
  if (args.json) ctx.logger.out(JSON.stringify(outcome, null, 2));
  if (!outcome.resolved) {
    if (!args.json) ctx.logger.error(`Not resolved: ${key}: ${WHY[outcome.why]}.`);
    return 1;
  }
  if (!args.json) {
    const next =
      as === 'completed'
        ? 'retries with this key replay the given result'
        : 'the key is free: the next retry runs the call';
    const verb = outcome.repaired ? 'Repaired the unreadable row' : 'Resolved';
    ctx.logger.out(`${verb} ${key} as ${as} by ${outcome.record.by} at ${outcome.record.at}: ${next}.`);
  }
  return 0;
}
