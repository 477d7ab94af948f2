import { activeChain } from '../config/active-chain.ts';
import type { Order } from '../domain/order.ts';
import type { Deps } from './deps.ts';
import { explorerLink } from './get-checkout.ts';

/** A payout not final yet, with its place in its chain's queue and its signed transactions. */
export interface OpenPayout {
  order: Order;
  merchantName: string | null;
  /** 1 for the next payout the worker signs on its chain; null once signed. */
  queuePosition: number | null;
  attempts: {
    txHash: string;
    explorerUrl: string | null;
    status: string;
    nonce: number | null;
    error: string | null;
  }[];
}

/** How many open payouts the page lists at most. */
export const OPEN_PAYOUTS_LIMIT = 500;

/**
 * Payouts not final yet, oldest first: queued ones (INIT, numbered in the order the worker signs
 * them on each chain) and sent ones (PENDING, PENDING_CONFIRMATION) with every transaction signed
 * for them and its explorer link. At most OPEN_PAYOUTS_LIMIT.
 */
export async function listOpenPayouts(deps: Pick<Deps, 'db' | 'config'>): Promise<OpenPayout[]> {
  const payouts = await deps.db.openPayouts(OPEN_PAYOUTS_LIMIT);
  const attempts = await deps.db.attemptsOfOrders(payouts.map((p) => p.id));
  const names = new Map((await deps.db.listMerchants()).map((m) => [m.id, m.name]));
  const position = new Map<string, number>();
  return payouts.map((order) => {
    let queuePosition: number | null = null;
    const mine = attempts.get(order.id) ?? [];
    if (order.status === 'INIT' || (order.status === 'PENDING' && mine.length === 0)) {
      queuePosition = (position.get(order.chain) ?? 0) + 1;
      position.set(order.chain, queuePosition);
    }
    const template = activeChain(deps.config, order.chain).explorerTx;
    return {
      order,
      merchantName: names.get(order.merchantId) ?? null,
      queuePosition,
      attempts: mine.map((a) => ({
        txHash: a.txHash,
        explorerUrl: explorerLink(template, a.txHash),
        status: a.status,
        nonce: a.nonce,
        error: a.error,
      })),
    };
  });
}
