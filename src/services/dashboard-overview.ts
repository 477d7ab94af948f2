import type { OrderStatus } from '../domain/order.ts';
import { type ChainProgress, chainProgress } from './chain-progress.ts';
import type { Deps } from './deps.ts';

/** What needs looking at right now: open orders, webhooks not delivered, held payouts, each scanner. */
export interface OverviewNow {
  open: {
    collections: Partial<Record<OrderStatus, number>>;
    payouts: Partial<Record<OrderStatus, number>>;
  };
  webhooks: { pending: number; failed: number };
  /** Payouts waiting for the operator: above the approval threshold, or held as stuck. */
  held: { approval: number; stuck: number };
  chains: ChainProgress[];
}

/**
 * The live part of the overview: orders not final yet by type and status, webhook events pending
 * or failed, payouts waiting for the operator, and every enabled chain's scanner (height, lag, whether it is within its budget; see
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
  const held = { approval: 0, stuck: 0 };
  for (const row of await deps.db.heldPayoutCounts()) held[row.kind] += row.n;
  return {
    open,
    webhooks: await deps.db.webhookAttentionCounts(),
    held,
    chains: await chainProgress(deps),
  };
}
