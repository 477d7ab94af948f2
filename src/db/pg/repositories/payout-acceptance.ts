import { sql } from 'drizzle-orm';
import { payoutFreeze } from '../../../domain/ledger.ts';
import type { Order } from '../../../domain/order.ts';
import { newId } from '../../../lib/ids.ts';
import { type PayoutFacts, rescale } from '../../repositories/payout-acceptance.ts';
import type { MoneyStore } from '../../store/money.ts';
import { isUniqueViolation, type PgDb, type PgTx, pgTransaction } from '../client.ts';
import { postEntry, readBalance } from './ledger.ts';
import { lockChainPayouts, lockMerchantMoney } from './money-locks.ts';
import { insertOrder, lockMerchantOrderId } from './order-creation.ts';
import { rowToOrder } from './order-rows.ts';
import { findOrderByMerchantOrderId, orderParamsKey } from './orders.ts';
import { openHold } from './payout-holds.ts';

export type { PayoutFacts } from '../../repositories/payout-acceptance.ts';

/** What acceptPayout takes: the port's argument (../../store/money.ts). */
type AcceptInput = Parameters<MoneyStore['acceptPayout']>[0];

type Accepted = { order: Order; created: boolean; paramsKey: string };

/**
 * Accepts a payout in one transaction: when the merchant already used the orderId, nothing is
 * written and the existing order comes back (`created: false`). Otherwise the facts are read,
 * `judge` decides (it throws to refuse: nothing is written), and the order is inserted in INIT with
 * `amount + fee` frozen on the merchant's ledger (`freezeBase`, null when the ledger check is off)
 * and an approval hold when it needs one. Because the check and the insert share the transaction
 * and its locks, concurrent requests from any process see each other. `judge` may be called more
 * than once (each fact is read from the database the first time it asks for it), so it must only
 * decide.
 */
// Kept correct by (b), locks taken before the reads they guard:
// - the (merchant, orderId) lock every order creation takes (order-creation.ts): a repeat, or a
//   createCollection reusing the orderId, waits for the first and then finds its order;
// - then, in money-locks.ts's order, the merchant's money lock: its daily total, its freezes;
// - the balance row FOR UPDATE (readBalance): a settlement or adjustment cannot move it between the
//   check and the freeze;
// - the chain's hot-wallet lock, taken only when judge asks what the hot wallet has promised (it
//   sums every merchant's open payouts on the chain).
// The unique index orders_merchant_order stays the last word: its violation rolls everything back
// and the stored order comes back, as for any repeat.
export async function acceptPayout(db: PgDb, input: AcceptInput): Promise<Accepted> {
  try {
    return await pgTransaction(db, (tx) => acceptIn(tx, input));
  } catch (error) {
    if (!isUniqueViolation(error, 'orders_merchant_order')) throw error;
    const existing = await findOrderByMerchantOrderId(db, input.order.merchantId, input.order.orderId);
    if (!existing) throw error;
    return { order: existing, created: false, paramsKey: (await orderParamsKey(db, existing.id)) ?? '' };
  }
}

async function acceptIn(tx: PgTx, input: AcceptInput): Promise<Accepted> {
  const { order } = input;
  const existing = await lockMerchantOrderId(tx, { merchantId: order.merchantId, orderId: order.orderId });
  if (existing) return { order: rowToOrder(existing), created: false, paramsKey: existing.paramsKey };
  await lockMerchantMoney(tx, order.merchantId);
  const key = { merchantId: order.merchantId, chain: order.chain, symbol: order.symbol };
  await judgeOnFacts(input.judge, {
    balance: () => readBalance(tx, key),
    paidToday: () => paidToday(tx, { ...key, since: input.dayStart, decimals: order.decimals }),
    async hotWalletCommitted() {
      await lockChainPayouts(tx, order.chain);
      return hotWalletCommitted(tx, {
        chain: order.chain,
        symbol: order.symbol,
        nativeSymbol: input.nativeSymbol,
        since: input.balanceReadAt,
      });
    },
  });
  const created = await insertOrder(tx, { ...order, id: newId('ord') }, input.now);
  if (input.freezeBase !== null) {
    const entry = { ...key, decimals: order.decimals, orderRef: created.id, reason: null };
    await postEntry(tx, { ...entry, movement: payoutFreeze(input.freezeBase) }, input.now);
  }
  if (input.approval !== null)
    await openHold(tx, { orderRef: created.id, kind: 'approval', reason: input.approval, now: input.now });
  return { order: created, created: true, paramsKey: order.paramsKey };
}

type Facts = { [K in keyof PayoutFacts]: ReturnType<PayoutFacts[K]> };
type FactLoaders = { [K in keyof PayoutFacts]: () => Promise<Facts[K]> };

const NEEDS_FACT = Symbol('needs a fact');

/**
 * Runs the synchronous `judge` on facts read from the database only when it asks for them: a fact
 * not read yet stops the judge, is read (with its lock), and the judge runs again on what is known.
 */
async function judgeOnFacts(judge: (facts: PayoutFacts) => void, load: FactLoaders): Promise<void> {
  const known: Partial<Facts> = {};
  const asked: { name: keyof PayoutFacts | null } = { name: null };
  const fact = <K extends keyof PayoutFacts>(name: K): Facts[K] => {
    if (name in known) return known[name] as Facts[K];
    asked.name = name;
    throw NEEDS_FACT;
  };
  for (;;) {
    asked.name = null;
    try {
      judge({
        balance: () => fact('balance'),
        paidToday: () => fact('paidToday'),
        hotWalletCommitted: () => fact('hotWalletCommitted'),
      });
      return;
    } catch (error) {
      const { name } = asked;
      if (error !== NEEDS_FACT || name === null) throw error;
      const read = load[name] as () => Promise<unknown>;
      Object.assign(known, { [name]: await read() });
    }
  }
}

/**
 * The merchant's payouts of this symbol on any chain accepted since `since`, except failed or expired
 * ones, in the payout's decimals (BSC's USDT has 18, the others 6; rounded up where a chain has more).
 */
async function paidToday(
  tx: PgTx,
  input: { merchantId: string; symbol: string; since: number; decimals: number },
): Promise<bigint> {
  const rows = await tx.execute<{ amount: string; decimals: number }>(sql`
    SELECT amount_base AS amount, decimals FROM orders
    WHERE merchant_id = ${input.merchantId} AND type = 'PAYOUT' AND created_at >= ${input.since}
      AND symbol = ${input.symbol} AND status NOT IN ('FAILED', 'EXPIRED')`);
  let sum = 0n;
  for (const r of rows.rows) sum += rescale(BigInt(r.amount), Number(r.decimals), input.decimals);
  return sum;
}

/**
 * What the hot wallet has promised and a balance read at `since` may still show: payouts not sent or
 * not mined (INIT, PENDING), and those Kassa recorded as mined after that moment.
 */
async function hotWalletCommitted(
  tx: PgTx,
  input: { chain: string; symbol: string; nativeSymbol: string | null; since: number },
): Promise<Facts['hotWalletCommitted']> {
  const rows = await tx.execute<{ symbol: string; amount: string }>(sql`
    SELECT id, symbol, amount_base AS amount FROM orders
    WHERE chain = ${input.chain} AND type = 'PAYOUT' AND status IN ('INIT', 'PENDING')
    UNION
    SELECT o.id, o.symbol, o.amount_base AS amount FROM payout_attempts a JOIN orders o ON o.id = a.order_ref
    WHERE a.chain = ${input.chain} AND a.updated_at > ${input.since} AND a.status IN ('mined', 'final')
      AND o.status IN ('PENDING_CONFIRMATION', 'SUCCESS')`);
  const committed = { tokenBase: 0n, nativeBase: 0n, count: 0 };
  for (const r of rows.rows) {
    committed.count++;
    if (r.symbol === input.symbol) committed.tokenBase += BigInt(r.amount);
    if (r.symbol === input.nativeSymbol) committed.nativeBase += BigInt(r.amount);
  }
  return committed;
}
