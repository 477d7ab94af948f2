import { applyOrderTransitions, findExpirableOrders } from '../db/repositories/orders.ts';
import { formatAmount } from '../domain/money.ts';
import type { Order } from '../domain/order.ts';
import { transition } from '../domain/order-state.ts';
import type { Deps } from './deps.ts';

/** Why an order expired, in words a merchant can act on. */
export function expiryReason(order: Order): string {
  if (order.type === 'PAYOUT') return 'The payout was not sent before it expired.';
  if (order.receivedBase === 0n) return 'No payment was received before the order expired.';
  const got = formatAmount(order.receivedBase, order.decimals);
  const want = formatAmount(order.amountBase, order.decimals);
  return `Only ${got} of ${want} ${order.symbol} was received before the order expired.`;
}

/**
 * Moves orders past their expiry to EXPIRED, with the reason and the webhook event in the same
 * transaction: collections still waiting (INIT) or only partly paid (PENDING), payouts never sent
 * (INIT). Collections whose full payment is waiting for finality are left to finish.
 */
export async function expireOrders(
  deps: Pick<Deps, 'db' | 'clock' | 'logger'>,
  limit = 500,
): Promise<{ expired: number }> {
  const now = deps.clock.now();
  const due = findExpirableOrders(deps.db, now, limit);
  if (due.length === 0) return { expired: 0 };
  const changed = applyOrderTransitions(
    deps.db,
    due.map((order) => ({
      order,
      patch: { status: transition(order.type, order.status, 'expired'), reason: expiryReason(order) },
    })),
    now,
  );
  for (const o of changed)
    deps.logger.info({ orderId: o.orderId, type: o.type, reason: o.reason }, 'order expired');
  return { expired: changed.length };
}
