/**
 * `idemgen reconcile --verify --store URL --base-url URL [--spec FILE…] [--header "K: V"…]`: settle every
 * pending row past its lease that a verification plan can look up (runtime/verify), by reads only, and
 * report each decision with its evidence. Rows it cannot settle stay listed; the exit code is 1 while any
 * row is left.
 */
import { analyze } from '../../analyze.js';
import { createHttpCaller, verifyPending, type VerificationPlan, type VerifyDecision } from '@idemgen/runtime';
import { terminalText } from '../../escape/index.js';
import { InputError } from '../../diagnostics/diagnostic.js';
import { resolveRun, type CliContext } from '../context.js';
import { storeError, withStore, type ReconcileArgs } from './store.js';

function headersOf(list: string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of list ?? []) {
    const at = h.indexOf(':');
    if (at <= 0) throw storeError('invalid_header', `--header ${JSON.stringify(h)} is not "Name: value"`);
    out[h.slice(0, at).trim()] = h.slice(at + 1).trim();
  }
  return out;
}

export async function verifyCommand(ctx: CliContext, args: ReconcileArgs): Promise<number> {
  if (args['base-url'] === undefined)
    throw storeError(
      'missing_base_url',
      '--verify reads the API: pass its base URL with --base-url',
      'idemgen reconcile --store URL --verify --base-url https://api.example.com --spec openapi.yaml',
    );
  const headers = headersOf(args.header);
  const { config, inputs, configInputs } = await resolveRun(ctx, { inputs: args.spec, config: args.config });
  const analysis = await analyze(inputs, config, ctx.cwd, [], { checkOverrides: configInputs });
  const errors = analysis.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new InputError(errors);
  const plans = new Map<string, VerificationPlan>();
  for (const api of analysis.plan.apis)
    for (const e of api.entries) if (e.verification !== undefined) plans.set(e.operation.key, e.verification);
  const http = createHttpCaller({ baseUrl: args['base-url'], headers });
  const decisions = await withStore(ctx, args.store, (store) =>
    verifyPending(store, { plans, http, ...(args.by !== undefined ? { by: args.by } : {}) }),
  );
  if (args.json) ctx.logger.out(JSON.stringify(decisions.map(jsonOf), null, 2));
  else print(ctx, decisions);
  return decisions.some((d) => d.decision === 'unknown' || d.decision === 'no-plan') ? 1 : 0;
}

function jsonOf(d: VerifyDecision) {
  return { key: d.row.key, scope: d.row.scope, operation: d.row.operation, decision: d.decision, evidence: d.evidence };
}

function print(ctx: CliContext, decisions: VerifyDecision[]): void {
  const t = terminalText;
  if (decisions.length === 0) {
    ctx.logger.out('No pending rows past their lease: nothing to verify.');
    return;
  }
  const settled = decisions.filter((d) => d.decision === 'completed' || d.decision === 'released');
  ctx.logger.out(`${settled.length} of ${decisions.length} pending row(s) settled by reading the API:`);
  for (const d of decisions) {
    const scope = d.row.scope ? ` scope=${t(d.row.scope)}` : '';
    ctx.logger.out(`  ${d.decision.padEnd(9)} ${t(d.row.operation)}  key=${t(d.row.key)}${scope}`);
    ctx.logger.out(`      ${t(d.evidence)}`);
  }
  if (settled.length < decisions.length)
    ctx.logger.out(
      'Rows left pending: resolve by hand with idemgen reconcile --store URL --resolve KEY --as completed|failed|not-executed',
    );
}
