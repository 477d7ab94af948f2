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
 * Moves orders past their expiry to a final state, with the reason and the webhook event in the
 * same transaction: collections still waiting (INIT) or only partly paid (PENDING) become EXPIRED —
 * or FAILED when their only payment failed or vanished in a reorganisation — and payouts never sent
 * (INIT) become EXPIRED. A collection expires only once its chain's scanner has read a block
 * stamped after its expiry time, so a payment made in time is never lost to a lagging or stopped
 * scanner; on a chain never scanned (its RPC down since the first start) nothing expires. Collections
 * whose full payment waits for finality are left to finish.
 */
export async function expireOrders(
  deps: Pick<Deps, 'db' | 'clock' | 'logger'>,
  limit = 500,
): Promise<{ expired: number }> {
  const now = deps.clock.now();
  // A block stamped after the expiry proves every block up to the checkpoint was read in time: the
  // next blocks carry that stamp or a later one, so any payment still to come is late.
  const scannedUpTo = new Map((await deps.db.listCursors()).map((c) => [c.chain, c.heightTime * 1000]));
  const due = await deps.db.findExpirableOrders(now, limit, scannedUpTo);
  if (due.length === 0) return { expired: 0 };
  const transfers = await deps.db.transfersOfOrders(
    due.filter((o) => o.type === 'COLLECTION' && o.receivedBase === 0n).map((o) => o.id),
  );
  const changed = await deps.db.applyOrderTransitions(
    due.map((order) => {
      const lost = (transfers.get(order.id) ?? []).find(
        (t) => t.status === 'failed' || t.status === 'orphaned',
      );
      if (lost) {
        const why = lost.status === 'failed' ? 'failed' : 'was removed by a chain reorganisation';
        return {
          order,
          patch: {
            status: transition(order.type, order.status, 'failed'),
            reason: `The payment transaction ${lost.txid} ${why} and nothing replaced it before the order expired.`,
          },
        };
      }
      return {
        order,
        patch: { status: transition(order.type, order.status, 'expired'), reason: expiryReason(order) },
      };
    }),
    now,
  );
  for (const o of changed) {
    deps.logger.info(
      { orderId: o.orderId, type: o.type, status: o.status, reason: o.reason },
      'order expired',
    );
  }
  return { expired: changed.length };
}
