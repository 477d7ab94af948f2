import type { OrderStatus } from '../domain/order.ts';
import { type ChainProgress, chainProgress } from './chain-progress.ts';
import type { Deps } from './deps.ts';

/** What needs looking at right now: open orders, webhooks not delivered, and each scanner. */
export interface OverviewNow {
  open: {
    collections: Partial<Record<OrderStatus, number>>;
    payouts: Partial<Record<OrderStatus, number>>;
  };
  webhooks: { pending: number; failed: number };
  chains: ChainProgress[];
}

/**
 * The live part of the overview: orders not final yet by type and status, webhook events pending
 * or failed, and every enabled chain's scanner (height, lag, whether it is within its budget; see
 * chain-progress.ts). Cheap: index counts and the checkpoints.
 */
export async function overviewNow(
  deps: Pick<Deps, 'config' | 'db' | 'clock' | 'health'>,
): Promise<OverviewNow> {
  const open: OverviewNow['open'] = { collections: {}, payouts: {} };
  for (const row of await deps.db.openOrderCounts()) {
    const side = row.type === 'PAYOUT' ? open.payouts : open.collections;
    side[row.status as OrderStatus] = row.n;
  }
  return {
    open,
    webhooks: await deps.db.webhookAttentionCounts(),
    chains: await chainProgress(deps),
  };
}
