import type { ChainAdapter, RecordedSpend, SlotVerdict } from '../chains/port.ts';
import { describeVerdict } from '../chains/slot-verdict.ts';
import type { PayoutAttempt } from '../db/store.ts';
import type { Order } from '../domain/order.ts';
import type { Deps } from './deps.ts';

const spend = (a: Pick<PayoutAttempt, 'txHash' | 'rawTx' | 'nonce' | 'validUntil'>): RecordedSpend => ({
  txHash: a.txHash,
  raw: a.rawTx,
  nonce: a.nonce,
  validUntil: a.validUntil,
});

/**
 * Decides what a payout whose transactions the chain does not show may do next (DESIGN.md section
 * 11, "never twice"), from the adapter's verdict on its spend slot, and records it: `dead` (proven
 * unable to land) gives up its transactions so the sender signs it in a new slot; `unexplained`
 * (the slot was used by something Kassa did not record) holds the payout for the operator, logged
 * as an error once and counted in /metrics (`kassa_payouts_held`), unless the operator gave these
 * transactions up while the chain was asked (their decision stands); `open` and `landed` change
 * nothing (the same bytes are sent again, or the tracker follows the one that landed).
 */
export async function judgePayoutSlot(
  deps: Pick<Deps, 'db' | 'clock' | 'logger'>,
  adapter: ChainAdapter,
  order: Pick<Order, 'id' | 'orderId' | 'merchantId'>,
  attempts: PayoutAttempt[],
): Promise<SlotVerdict> {
  const first = attempts[0];
  if (!first) return { state: 'open', detail: 'no transaction to judge' };
  const log = deps.logger.child({ chain: adapter.chain, job: 'payouts', orderId: order.orderId });
  const recorded = await deps.db.recordedSpends({
    chain: adapter.chain,
    from: first.fromAddress,
    exceptOrder: order.id,
    nonce: first.nonce,
  });
  // sweep top-ups and energy loans are signed from the same hot wallet: they are Kassa's too
  const sweepTxs = await deps.db.sweepSpendsFrom({
    chain: adapter.chain,
    from: first.fromAddress,
    nonce: first.nonce,
  });
  const verdict = await adapter.judgeSlot({
    from: first.fromAddress,
    attempts: attempts.map(spend),
    recorded: [...recorded.map(spend), ...sweepTxs.map(spend)],
  });
  const now = deps.clock.now();
  switch (verdict.state) {
    case 'dead':
      await deps.db.recordPayoutProgress({
        attempts: attempts.map((a) => ({ id: a.id, status: 'dropped' as const, error: verdict.proof })),
        transitions: [],
        now,
      });
      log.warn(
        { txids: attempts.map((a) => a.txHash), proof: verdict.proof },
        'payout transaction can never land; it will be signed in a new slot',
      );
      break;
    case 'unexplained': {
      const reason = `Its spend slot (${first.slot ?? 'unknown'}) was used by a transaction Kassa did not record: ${verdict.detail}`;
      const held = await deps.db.holdPayout({
        orderRef: order.id,
        attempts: attempts.map((a) => a.id),
        reason,
        now,
      });
      if (held === 'held') {
        log.error(
          { merchantId: order.merchantId, txids: attempts.map((a) => a.txHash), detail: verdict.detail },
          'payout held: check the chain, then `kassa payouts retry` (it did not land) or `kassa payouts fail`',
        );
      } else if (held === 'still held') {
        log.debug({ detail: verdict.detail }, 'payout still held');
      } else {
        log.info({ detail: verdict.detail }, 'payout not held: the operator decided on it meanwhile');
      }
      break;
    }
    default:
      log.debug({ verdict: describeVerdict(verdict) }, 'payout slot judged');
  }
  return verdict;
}
