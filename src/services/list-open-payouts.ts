import { activeChain } from '../config/active-chain.ts';
import type { Order } from '../domain/order.ts';
import type { Deps } from './deps.ts';
import { explorerLink } from './get-checkout.ts';

/** A payout not final yet, with its place in its chain's queue and its signed transactions. */
export interface OpenPayout {
  order: Order;
  merchantName: string | null;
  /**
   * 1 for the next payout the worker signs on its chain; null when it is not waiting to be signed
   * (a transaction of it may still land, or it waits for the operator).
   */
  queuePosition: number | null;
  /**
   * What it waits for, when the operator must decide: `approval` (above `approvalAbove`) or
   * `stuck` (its spend slot was used by a transaction Kassa did not record), with why and since when.
   */
  hold: { kind: 'approval' | 'stuck'; reason: string; since: number } | null;
  attempts: {
    txHash: string;
    explorerUrl: string | null;
    status: string;
    nonce: number | null;
    /** The spend slot in words (nonce, TRON window, Sui inputs). */
    slot: string | null;
    error: string | null;
    signedAt: number;
  }[];
}

/** Transaction states that may still land. */
const LIVE = new Set(['signed', 'broadcast', 'mined']);

/** How many open payouts the page lists at most. */
export const OPEN_PAYOUTS_LIMIT = 500;

/**
 * Payouts not final yet, oldest first: queued ones (numbered in the order the worker signs them on
 * each chain: INIT, and PENDING ones whose every transaction can no longer land), those waiting
 * for the operator (approval, or held as stuck: never numbered, the worker leaves them alone) and
 * sent ones, with every transaction signed for them, its spend slot and its explorer link. At most
 * OPEN_PAYOUTS_LIMIT.
 */
export async function listOpenPayouts(deps: Pick<Deps, 'db' | 'config'>): Promise<OpenPayout[]> {
  const payouts = await deps.db.openPayouts(OPEN_PAYOUTS_LIMIT);
  const ids = payouts.map((p) => p.id);
  const attempts = await deps.db.attemptsOfOrders(ids);
  const holds = await deps.db.holdsOf(ids);
  const names = new Map((await deps.db.listMerchants()).map((m) => [m.id, m.name]));
  const position = new Map<string, number>();
  return payouts.map((order) => {
    let queuePosition: number | null = null;
    const mine = attempts.get(order.id) ?? [];
    const open = holds.get(order.id) ?? [];
    // what the sender picks (payoutsToSend): nothing that may land, no open hold
    const toSign =
      (order.status === 'INIT' || order.status === 'PENDING') && !mine.some((a) => LIVE.has(a.status));
    if (toSign && open.length === 0) {
      queuePosition = (position.get(order.chain) ?? 0) + 1;
      position.set(order.chain, queuePosition);
    }
    // a stuck hold outranks an approval: it is about a transaction that may be on chain
    const hold = open.find((h) => h.kind === 'stuck') ?? open[0];
    const template = activeChain(deps.config, order.chain).explorerTx;
    return {
      order,
      merchantName: names.get(order.merchantId) ?? null,
      queuePosition,
      hold: hold ? { kind: hold.kind, reason: hold.reason, since: hold.createdAt } : null,
      attempts: mine.map((a) => ({
        txHash: a.txHash,
        explorerUrl: explorerLink(template, a.txHash),
        status: a.status,
        nonce: a.nonce,
        slot: a.slot,
        error: a.error,
        signedAt: a.createdAt,
      })),
    };
  });
}
