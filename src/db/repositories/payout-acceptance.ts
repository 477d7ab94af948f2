import { type Balance, payoutFreeze } from '../../domain/ledger.ts';
import type { Order } from '../../domain/order.ts';
import { newId } from '../../lib/ids.ts';
import { batchedWrite } from '../batched-write.ts';
import type { Db } from '../client.ts';
import { prepared } from '../prepared.ts';
import { postEntry, readBalance } from './ledger.ts';
import { insertOrder } from './order-creation.ts';
import { findOrderByMerchantOrderId, type NewOrder, orderParamsKey } from './orders.ts';
import { openHold } from './payout-holds.ts';

// --- accepting a payout ---------------------------------------------------------------------------

/**
 * What createPayout's checks are decided on, read inside the write transaction that inserts it; each
 * is read only when the check that needs it runs (a daily sum costs a scan of the day's payouts).
 */
export interface PayoutFacts {
  /** The merchant's balance in the payout's chain and token. */
  balance(): Balance;
  /**
   * The merchant's payouts of this symbol on any chain accepted in the last 24 hours, except failed
   * or expired ones, in the payout's decimals (rounded up where a chain has more).
   */
  paidToday(): bigint;
  /**
   * What the hot wallet has promised and a balance read at `balanceReadAt` may still show: payouts
   * not sent or not mined (INIT, PENDING), and those Kassa recorded as mined after that moment
   * (recorded earlier means mined earlier, so the balance read already shows them).
   */
  hotWalletCommitted(): { tokenBase: bigint; nativeBase: bigint; count: number };
}

const selectPaidToday = (db: Db) =>
  prepared(db, 'payouts.paidToday', () =>
    db.$client.prepare<
      { merchantId: string; symbol: string; since: number },
      { amount: string; decimals: number }
    >(
      `SELECT amount_base AS amount, decimals FROM orders
       WHERE merchant_id = @merchantId AND type = 'PAYOUT' AND created_at >= @since
         AND symbol = @symbol AND status NOT IN ('FAILED', 'EXPIRED')`,
    ),
  );

const selectCommitted = (db: Db) =>
  prepared(db, 'payouts.committed', () =>
    db.$client.prepare<{ chain: string; since: number }, { symbol: string; amount: string }>(
      `SELECT id, symbol, amount_base AS amount FROM orders
       WHERE chain = @chain AND type = 'PAYOUT' AND status IN ('INIT', 'PENDING')
       UNION
       SELECT o.id, o.symbol, o.amount_base AS amount FROM payout_attempts a JOIN orders o ON o.id = a.order_ref
       WHERE a.chain = @chain AND a.updated_at > @since AND a.status IN ('mined', 'final')
         AND o.status IN ('PENDING_CONFIRMATION', 'SUCCESS')`,
    ),
  );

/**
 * Accepts a payout in one write transaction (group-committed with the API's other writes): when
 * the merchant already used the orderId, nothing is written and the existing order comes back
 * (`created: false`). Otherwise the facts are read, `judge` decides (it throws to refuse: nothing is
 * written), and the order is inserted in INIT with `amount + fee` frozen on the merchant's ledger
 * (`freezeBase`, null when the ledger check is off) and an approval hold when it needs one. Because
 * the check and the insert share the transaction, concurrent requests see each other.
 */
export function acceptPayout(
  db: Db,
  input: {
    order: NewOrder & { address: string; reason: string | null };
    freezeBase: bigint | null;
    approval: string | null;
    nativeSymbol: string | null;
    /** When the hot wallet's balance was read (payouts first seen mined since then still count). */
    balanceReadAt: number;
    /** Start of the rolling day for the daily limit. */
    dayStart: number;
    judge: (facts: PayoutFacts) => void;
    now: number;
  },
): Promise<{ order: Order; created: boolean; paramsKey: string }> {
  return batchedWrite(db, () => {
    const { order } = input;
    const existing = findOrderByMerchantOrderId(db, order.merchantId, order.orderId);
    if (existing)
      return { order: existing, created: false, paramsKey: orderParamsKey(db, existing.id) ?? '' };
    const key = { merchantId: order.merchantId, chain: order.chain, symbol: order.symbol };
    input.judge({
      balance: () => readBalance(db, key),
      paidToday() {
        // per symbol over every chain, in this payout's decimals (BSC's USDT has 18, the others 6)
        let sum = 0n;
        const since = input.dayStart;
        for (const r of selectPaidToday(db).all({ merchantId: key.merchantId, symbol: key.symbol, since }))
          sum += rescale(BigInt(r.amount), r.decimals, order.decimals);
        return sum;
      },
      hotWalletCommitted() {
        const committed = { tokenBase: 0n, nativeBase: 0n, count: 0 };
        for (const r of selectCommitted(db).all({ chain: order.chain, since: input.balanceReadAt })) {
          committed.count++;
          if (r.symbol === order.symbol) committed.tokenBase += BigInt(r.amount);
          if (r.symbol === input.nativeSymbol) committed.nativeBase += BigInt(r.amount);
        }
        return committed;
      },
    });
    const created = insertOrder(db, { ...order, id: newId('ord') }, input.now);
    if (input.freezeBase !== null) {
      postEntry(
        db,
        {
          ...key,
          decimals: order.decimals,
          movement: payoutFreeze(input.freezeBase),
          orderRef: created.id,
          reason: null,
        },
        input.now,
      );
    }
    if (input.approval !== null)
      openHold(db, { orderRef: created.id, kind: 'approval', reason: input.approval, now: input.now });
    return { order: created, created: true, paramsKey: order.paramsKey };
  });
}

/** Base units of one token in another's decimals, rounded up (a limit is never undercounted). */
export function rescale(amount: bigint, from: number, to: number): bigint {
  if (from === to) return amount;
  if (from < to) return amount * 10n ** BigInt(to - from);
  const unit = 10n ** BigInt(from - to);
  return (amount + unit - 1n) / unit;
}
