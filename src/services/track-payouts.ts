import type { ChainAdapter, ChainHeads, PayoutLookup } from '../chains/port.ts';
import type { AttemptUpdate, OrderTransition, PayoutAttempt } from '../db/store.ts';
import type { Order, OrderTransaction } from '../domain/order.ts';
import { transition } from '../domain/order-state.ts';
import type { Deps } from './deps.ts';
import { judgePayoutSlot } from './judge-payout-slot.ts';

type TrackDeps = Pick<Deps, 'db' | 'clock' | 'logger'>;

/**
 * Follows broadcast payouts to the end. A payout may have several transactions in its one spend
 * slot (an EVM original and its re-priced replacements); it follows whichever the chain mined:
 * mined → PENDING_CONFIRMATION (confirmations kept current), final and successful → SUCCESS (the
 * others become `replaced`), final and reverted → FAILED. A mined transaction that a
 * reorganisation removed goes back to PENDING and is broadcast again (same bytes). When the chain
 * knows none of them, the newest is sent again; if the chain refuses it for good, the slot is
 * judged: a new slot only when proven dead, a hold for the operator when the slot was used by
 * something Kassa did not record. A held payout whose transaction shows up after all is released.
 */
export async function trackPayouts(
  deps: TrackDeps,
  adapter: ChainAdapter,
  heads: ChainHeads,
): Promise<{ settled: number }> {
  const live = (await deps.db.liveAttempts(adapter.chain)).filter((a) => a.status !== 'signed');
  if (live.length === 0) return { settled: 0 };
  const slots = new Map<string, PayoutAttempt[]>();
  for (const a of live) slots.set(a.orderRef, [...(slots.get(a.orderRef) ?? []), a]);
  const orders = await deps.db.ordersByIds([...slots.keys()]);
  let settled = 0;
  for (const [orderRef, attempts] of slots) {
    const order = orders.get(orderRef);
    if (!order || (order.status !== 'PENDING' && order.status !== 'PENDING_CONFIRMATION')) continue;
    const seen: { attempt: PayoutAttempt; found: PayoutLookup }[] = [];
    for (const attempt of attempts) seen.push({ attempt, found: await adapter.lookup(attempt.txHash) });
    const mined = seen.find((s) => s.found.state === 'mined');
    const step = mined
      ? followMined(
          order,
          attempts,
          mined.attempt,
          mined.found as Extract<PayoutLookup, { state: 'mined' }>,
          heads,
        )
      : await notMined(deps, adapter, order, seen);
    if (step.settled) settled++;
    if (step.updates.length === 0 && !step.move && !step.landed) continue;
    await deps.db.recordPayoutProgress({
      attempts: step.updates,
      transitions: step.move ? [step.move] : [],
      landed: step.landed ? [order.id] : [],
      now: deps.clock.now(),
    });
    if (step.move && step.move.patch.status !== order.status) {
      deps.logger.info(
        { chain: adapter.chain, orderId: order.orderId, from: order.status, to: step.move.patch.status },
        'payout moved',
      );
    }
  }
  return { settled };
}

interface Step {
  updates: AttemptUpdate[];
  move: OrderTransition | null;
  /** One of its transactions is on chain: a stuck hold no longer applies. */
  landed: boolean;
  settled: boolean;
}

function followMined(
  order: Order,
  attempts: PayoutAttempt[],
  winner: PayoutAttempt,
  found: Extract<PayoutLookup, { state: 'mined' }>,
  heads: ChainHeads,
): Step {
  const confirmations = Math.max(0, heads.head - found.blockNum + 1);
  const tx = (patch: Partial<OrderTransaction>): OrderTransaction => ({
    ...(order.transaction as OrderTransaction),
    txid: winner.txHash,
    blockNum: found.blockNum,
    confirmedNum: confirmations,
    timestamp: found.timestamp,
    ...patch,
  });
  const others: AttemptUpdate[] = attempts
    .filter((a) => a.id !== winner.id)
    .map((a) => ({ id: a.id, status: 'replaced', error: `${winner.txHash} used the slot` }));
  if (found.blockNum <= heads.final) {
    if (found.success) {
      return {
        updates: [{ id: winner.id, status: 'final', blockNum: found.blockNum }, ...others],
        move: {
          order,
          patch: {
            status: transition('PAYOUT', order.status, 'settled'),
            actualAmountBase: order.amountBase,
            transaction: tx({ status: 'SUCCESS' }),
          },
        },
        landed: true,
        settled: true,
      };
    }
    const error = found.error ?? 'reverted';
    return {
      updates: [{ id: winner.id, status: 'failed', blockNum: found.blockNum, error }, ...others],
      move: {
        order,
        patch: {
          status: transition('PAYOUT', order.status, 'failed'),
          reason: `The payout transaction failed on chain: ${error}.`,
          transaction: tx({ status: 'FAILED' }),
        },
      },
      landed: true,
      settled: true,
    };
  }
  const updates: AttemptUpdate[] =
    winner.status === 'mined' && winner.blockNum === found.blockNum
      ? []
      : [{ id: winner.id, status: 'mined', blockNum: found.blockNum }];
  const status = order.status === 'PENDING' ? transition('PAYOUT', 'PENDING', 'mined') : order.status;
  const changed =
    status !== order.status ||
    order.transaction?.txid !== winner.txHash ||
    order.transaction?.confirmedNum !== confirmations ||
    order.transaction?.blockNum !== found.blockNum;
  return {
    updates,
    move: changed ? { order, patch: { status, transaction: tx({ status: 'PENDING' }) } } : null,
    landed: true,
    settled: false,
  };
}

async function notMined(
  deps: TrackDeps,
  adapter: ChainAdapter,
  order: Order,
  seen: { attempt: PayoutAttempt; found: PayoutLookup }[],
): Promise<Step> {
  const step: Step = { updates: [], move: null, landed: false, settled: false };
  // a transaction seen mined before and gone now: a reorganisation took its block
  for (const { attempt } of seen) {
    if (attempt.status === 'mined')
      step.updates.push({ id: attempt.id, status: 'broadcast', blockNum: null });
  }
  if (step.updates.length > 0 && order.status === 'PENDING_CONFIRMATION') {
    step.move = {
      order,
      patch: {
        status: transition('PAYOUT', order.status, 'unmined'),
        transaction: { ...(order.transaction as OrderTransaction), blockNum: 0, confirmedNum: 0 },
      },
    };
  }
  if (!seen.every((s) => s.found.state === 'unknown')) return step; // in the mempool: wait
  const newest = seen.at(-1)?.attempt as PayoutAttempt;
  const again = await adapter.broadcast({ raw: newest.rawTx, txHash: newest.txHash });
  if (again.ok) return step;
  if (!again.permanent) {
    deps.logger.warn(
      { chain: adapter.chain, orderId: order.orderId, txid: newest.txHash, error: again.error },
      'payout transaction unknown to the chain and its broadcast failed; will retry',
    );
    return step;
  }
  if (step.updates.length > 0 || step.move) {
    // record the fall-back first: judging may give the attempts up
    await deps.db.recordPayoutProgress({
      attempts: step.updates,
      transitions: step.move ? [step.move] : [],
      now: deps.clock.now(),
    });
    step.updates = [];
    step.move = null;
  }
  const verdict = await judgePayoutSlot(
    deps,
    adapter,
    order,
    seen.map((s) => s.attempt),
  );
  if (verdict.state === 'landed') step.landed = true;
  return step;
}
