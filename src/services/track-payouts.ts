import type { ChainAdapter, ChainHeads } from '../chains/port.ts';
import { ordersByIds } from '../db/repositories/chain-scan.ts';
import type { OrderTransition } from '../db/repositories/orders.ts';
import { type AttemptStatus, liveAttempts, recordPayoutProgress } from '../db/repositories/payouts.ts';
import type { OrderTransaction } from '../domain/order.ts';
import { transition } from '../domain/order-state.ts';
import type { Deps } from './deps.ts';

type TrackDeps = Pick<Deps, 'db' | 'clock' | 'logger'>;

/**
 * Follows broadcast payout transactions to the end: mined → PENDING_CONFIRMATION (confirmations kept
 * current), final and successful → SUCCESS, final and reverted → FAILED; a mined transaction that a
 * reorganisation removed goes back to PENDING and is broadcast again (same bytes); one the chain
 * forgot is re-sent, and dropped only when it provably can never land.
 */
export async function trackPayouts(
  deps: TrackDeps,
  adapter: ChainAdapter,
  heads: ChainHeads,
): Promise<{ settled: number }> {
  const attempts = liveAttempts(deps.db, adapter.chain).filter((a) => a.status !== 'signed');
  if (attempts.length === 0) return { settled: 0 };
  const orders = ordersByIds(
    deps.db,
    attempts.map((a) => a.orderRef),
  );
  let settled = 0;
  for (const attempt of attempts) {
    const order = orders.get(attempt.orderRef);
    if (!order || (order.status !== 'PENDING' && order.status !== 'PENDING_CONFIRMATION')) continue;
    const found = await adapter.lookup(attempt.txHash);
    const tx = (patch: Partial<OrderTransaction>): OrderTransaction => ({
      ...(order.transaction as OrderTransaction),
      ...patch,
    });
    let update: { status: AttemptStatus; blockNum?: number | null; error?: string | null } | null = null;
    let move: OrderTransition | null = null;
    if (found.state === 'mined') {
      const confirmations = Math.max(0, heads.head - found.blockNum + 1);
      const mined = { blockNum: found.blockNum, confirmedNum: confirmations, timestamp: found.timestamp };
      if (found.blockNum <= heads.final) {
        settled++;
        if (found.success) {
          update = { status: 'final', blockNum: found.blockNum };
          move = {
            order,
            patch: {
              status: transition('PAYOUT', order.status, 'settled'),
              actualAmountBase: order.amountBase,
              transaction: tx({ ...mined, status: 'SUCCESS' }),
            },
          };
        } else {
          update = { status: 'failed', blockNum: found.blockNum, error: found.error ?? 'reverted' };
          move = {
            order,
            patch: {
              status: transition('PAYOUT', order.status, 'failed'),
              reason: `The payout transaction failed on chain: ${found.error ?? 'reverted'}.`,
              transaction: tx({ ...mined, status: 'FAILED' }),
            },
          };
        }
      } else {
        update =
          attempt.status === 'mined' && attempt.blockNum === found.blockNum
            ? null
            : { status: 'mined', blockNum: found.blockNum };
        const status = order.status === 'PENDING' ? transition('PAYOUT', 'PENDING', 'mined') : order.status;
        if (
          status !== order.status ||
          order.transaction?.confirmedNum !== confirmations ||
          order.transaction?.blockNum !== found.blockNum
        ) {
          move = { order, patch: { status, transaction: tx({ ...mined, status: 'PENDING' }) } };
        }
      }
    } else {
      if (attempt.status === 'mined') {
        update = { status: 'broadcast', blockNum: null };
        if (order.status === 'PENDING_CONFIRMATION') {
          move = {
            order,
            patch: {
              status: transition('PAYOUT', order.status, 'unmined'),
              transaction: tx({ blockNum: 0, confirmedNum: 0 }),
            },
          };
        }
      }
      if (found.state === 'unknown') {
        const again = await adapter.broadcast({ raw: attempt.rawTx, txHash: attempt.txHash });
        if (!again.ok && (await adapter.canNeverLand({ ...attempt, from: attempt.fromAddress }))) {
          update = { status: 'dropped', error: again.error };
          deps.logger.warn(
            { chain: adapter.chain, orderId: order.orderId, txid: attempt.txHash },
            'payout transaction can never land; a new one will be signed',
          );
        }
      }
    }
    if (update || move) {
      recordPayoutProgress(deps.db, {
        attempts: update ? [{ id: attempt.id, ...update }] : [],
        transitions: move ? [move] : [],
        now: deps.clock.now(),
      });
      if (move && move.patch.status !== order.status) {
        deps.logger.info(
          { chain: adapter.chain, orderId: order.orderId, from: order.status, to: move.patch.status },
          'payout moved',
        );
      }
    }
  }
  return { settled };
}
