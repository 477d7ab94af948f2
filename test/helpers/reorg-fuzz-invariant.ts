import type { Db } from '../../src/db/client.ts';
import { transfersOfChain } from '../../src/db/repositories/chain-scan.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import { REORG_REVERT_REASON } from '../../src/domain/collection-progress.ts';
import { formatAmount } from '../../src/domain/money.ts';
import type { Order } from '../../src/domain/order.ts';
import type { FuzzChain } from './reorg-fuzz-chain.ts';

/*
 * The invariant the reorg fuzz (reorg-fuzz.ts) checks once the chain settled: every transfer to an
 * order address on the final canonical chain is recorded exactly once, final, in its canonical
 * block, credited to its order when it is in the order's token and to nothing otherwise; nothing
 * else is recorded or credited; each order's state and amounts follow from those transfers alone;
 * and its webhook events walk a valid path to that state.
 */

/** A payment the fuzz's customer sent. */
export interface Sent {
  txid: string;
  to: string;
  symbol: string;
  amountBase: bigint;
  /** The order's merchant orderId (every payment goes to an order address). */
  orderId: string;
}

/** An order the fuzz opened. */
export interface Plan {
  orderId: string;
  symbol: string;
  decimals: number;
  amountBase: bigint;
  address: string;
}

/** What the invariant is checked against: the run's chain, payments and orders, and how to report. */
export interface FuzzOutcome {
  c: FuzzChain;
  db: Db;
  sent: readonly Sent[];
  plans: readonly Plan[];
  findOrder(orderId: string): Order;
  /** For the error: the seed, whether the RPC was down from the start, and the action log. */
  run: { seed: number; outageFromStart: boolean; log: readonly string[] };
}

/** Checks the invariant; throws with every problem, the orders they name, the seed and the action log. */
export async function verifyReorgInvariant({
  c,
  db,
  sent,
  plans,
  findOrder,
  run,
}: FuzzOutcome): Promise<void> {
  const problems: string[] = [];
  const rows = transfersOfChain(db, c.chain);
  const live = rows.filter((r) => r.status !== 'orphaned');
  const ledger = new Map(sent.map((s) => [s.txid, s]));
  for (const r of live) {
    if (!ledger.has(r.txid)) problems.push(`a transfer no one sent is recorded: ${r.txid}`);
  }
  const credited = new Map<string, bigint>();
  for (const s of sent) {
    const where = await c.locate(s.txid);
    const mine = live.filter((r) => r.txid === s.txid);
    if (!where) {
      if (mine.length > 0) problems.push(`${s.txid} is not on the chain but recorded as ${mine[0]?.status}`);
      continue;
    }
    if (!where.success) {
      problems.push(`${s.txid} failed on chain: the fuzz's customer ran out of funds or gas`);
      continue;
    }
    const order = findOrder(s.orderId);
    const rightToken = s.symbol === order.symbol;
    if (mine.length !== 1) {
      problems.push(
        `${s.txid} (${s.symbol} to ${s.orderId}, a ${order.symbol} order) on chain at ${where.blockNum} is recorded ${mine.length} times`,
      );
      continue;
    }
    const row = mine[0] as (typeof mine)[number];
    if (row.status !== 'final' || row.blockNum !== where.blockNum || row.blockHash !== where.blockHash) {
      problems.push(
        `${s.txid} (${s.orderId}) is at ${where.blockNum} on chain, recorded ${row.status} at ${row.blockNum}${row.blockHash === where.blockHash ? '' : ' with another hash'}`,
      );
    }
    if (row.amountBase !== s.amountBase || row.to !== s.to)
      problems.push(`${s.txid} recorded with other facts`);
    if (rightToken) {
      if (row.orderRef !== order.id)
        problems.push(`${s.txid} is not credited to ${s.orderId} (${row.unattributedReason})`);
      credited.set(order.id, (credited.get(order.id) ?? 0n) + s.amountBase);
    } else if (row.orderRef !== null || row.unattributedReason !== 'wrong-token') {
      problems.push(`${s.txid} in the wrong token is credited or mislabelled (${row.unattributedReason})`);
    }
  }
  for (const plan of plans) {
    const order = findOrder(plan.orderId);
    const sum = credited.get(order.id) ?? 0n;
    const counted = live
      .filter((r) => r.orderRef === order.id && r.status === 'final')
      .reduce((a, r) => a + r.amountBase, 0n);
    if (counted !== sum) problems.push(`${plan.orderId}: ${counted} credited, ${sum} on chain`);
    const lost = rows.some((r) => r.orderRef === order.id && r.status === 'orphaned');
    const expected = sum >= order.amountBase ? 'SUCCESS' : sum > 0n ? 'EXPIRED' : lost ? 'FAILED' : 'EXPIRED';
    if (order.status !== expected) {
      problems.push(`${plan.orderId}: ${order.status}, expected ${expected} (${sum} of ${order.amountBase})`);
    }
    if (order.receivedBase !== sum) {
      problems.push(`${plan.orderId}: receivedBase ${order.receivedBase}, ${sum} on chain`);
    }
    if (order.status === 'SUCCESS' && order.actualAmountBase !== sum) {
      problems.push(`${plan.orderId}: actualAmount ${order.actualAmountBase}, ${sum} on chain`);
    }
    if (order.status === 'EXPIRED') {
      const why =
        sum === 0n
          ? 'No payment was received before the order expired.'
          : `Only ${formatAmount(sum, plan.decimals)} of ${formatAmount(order.amountBase, plan.decimals)} ${plan.symbol} was received before the order expired.`;
      if (order.reason !== why) problems.push(`${plan.orderId}: reason ${order.reason}, expected ${why}`);
    }
    problems.push(...webhookProblems(db, order, sum));
  }
  if (problems.length > 0) {
    // each order a problem names, with what the chain holds and what Kassa recorded for it
    for (const plan of plans.filter((p) =>
      problems.some(
        (x) =>
          x.includes(`${p.orderId} `) ||
          x.includes(`${p.orderId}:`) ||
          x.includes(`${p.orderId})`) ||
          x.includes(`${p.orderId},`),
      ),
    )) {
      const order = findOrder(plan.orderId);
      problems.push(`${plan.orderId} (${order.status}, ${order.amountBase} ${plan.symbol}):`);
      for (const s of sent.filter((x) => x.orderId === plan.orderId)) {
        const where = await c.locate(s.txid);
        problems.push(
          `    sent ${s.txid} ${s.amountBase} ${s.symbol}: ${where ? `on chain at ${where.blockNum}` : 'not on chain'}`,
        );
      }
      for (const r of rows.filter((x) => x.to === plan.address)) {
        problems.push(
          `    row ${r.txid}#${r.eventKey} ${r.amountBase} ${r.status} at ${r.blockNum} ${r.orderRef ? 'credited' : r.unattributedReason} (written ${r.createdAt})`,
        );
      }
    }
    throw new Error(
      `reorg fuzz seed ${run.seed} (${c.chain}${run.outageFromStart ? ', RPC down from the first start' : ''}):\n  ${problems.join('\n  ')}\nactions:\n  ${run.log.join('\n  ')}`,
    );
  }
}

function webhookProblems(db: Db, order: Order, sum: bigint): string[] {
  const out: string[] = [];
  const events = db
    .select()
    .from(webhookEvents)
    .all()
    .filter((e) => e.orderRef === order.id)
    .sort((a, b) => a.orderVersion - b.orderVersion);
  const statusOf: Record<string, string> = {
    ORDER_REVERTED: 'INIT',
    ORDER_PENDING: 'PENDING',
    ORDER_PENDING_CONFIRMATION: 'PENDING_CONFIRMATION',
    ORDER_SUCCESS: 'SUCCESS',
    ORDER_EXPIRED: 'EXPIRED',
    ORDER_FAILED: 'FAILED',
  };
  let previous = 'INIT';
  for (const e of events) {
    const data = JSON.parse(e.data) as {
      status: string;
      reason: string | null;
      actualAmount: string | null;
    };
    if (statusOf[e.notifyType] !== data.status)
      out.push(`${order.orderId}: ${e.notifyType} carries ${data.status}`);
    if (data.status === previous) out.push(`${order.orderId}: ${e.notifyType} without a change of state`);
    if (['SUCCESS', 'EXPIRED', 'FAILED'].includes(previous))
      out.push(`${order.orderId}: an event after ${previous}`);
    if (e.notifyType === 'ORDER_REVERTED') {
      if (previous !== 'PENDING' && previous !== 'PENDING_CONFIRMATION')
        out.push(`${order.orderId}: reverted from ${previous}`);
      if (data.reason !== REORG_REVERT_REASON)
        out.push(`${order.orderId}: reverted with reason ${data.reason}`);
    }
    if (e.notifyType === 'ORDER_SUCCESS' && data.actualAmount !== formatAmount(sum, order.decimals)) {
      out.push(`${order.orderId}: ORDER_SUCCESS says ${data.actualAmount}, ${sum} on chain`);
    }
    previous = data.status;
  }
  if (previous !== order.status)
    out.push(`${order.orderId}: last event says ${previous}, the order is ${order.status}`);
  return out;
}
