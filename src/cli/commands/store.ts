/** `idemgen reconcile` and `idemgen prune`: operate on a live dedup store (SOP OP-5 reconciliation, TTL expiry). */
import { openStore, pruneExpired, reconcileReport } from '../../runtime/index.js';
import type { CliContext } from '../context.js';

export interface StoreArgs {
  store: string;
  json?: boolean;
}

export async function reconcileCommand(ctx: CliContext, args: StoreArgs): Promise<number> {
  const store = await openStore(args.store);
  try {
    const rows = await reconcileReport(store);
    if (args.json) {
      ctx.logger.out(JSON.stringify(rows, null, 2));
    } else if (rows.length === 0) {
      ctx.logger.out('No pending rows past their lease: nothing to reconcile.');
    } else {
      ctx.logger.out(`${rows.length} row(s) need reconciliation (pending past lease or outcome unknown):`);
      for (const r of rows) ctx.logger.out(`  ${JSON.stringify(r)}`);
    }
    return rows.length === 0 ? 0 : 1;
  } finally {
    await store.close();
  }
}

export async function pruneCommand(ctx: CliContext, args: StoreArgs): Promise<number> {
  const store = await openStore(args.store);
  try {
    const removed = await pruneExpired(store);
    ctx.logger.out(args.json ? JSON.stringify({ removed }) : `Removed ${removed} expired row(s).`);
    return 0;
  } finally {
    await store.close();
  }
}
