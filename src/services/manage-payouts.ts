import type { ChainAdapter } from '../chains/port.ts';
import type { HoldKind, PayoutListing } from '../db/store.ts';
import { AppError } from '../domain/errors.ts';
import { formatAmount } from '../domain/money.ts';
import { ORDER_STATUSES, type Order, type OrderStatus } from '../domain/order.ts';
import type { Deps } from './deps.ts';

/** A payout as an operator reviews it. */
export interface PayoutView {
  orderId: string;
  merchantId: string;
  chain: string;
  symbol: string;
  amount: string;
  fee: string;
  receiveAddress: string | null;
  status: OrderStatus;
  reason: string | null;
  /** What it waits for: the operator's approval, or a decision on a stuck transaction. */
  hold: HoldKind | null;
  holdReason: string | null;
  heldSince: string | null;
  txid: string | null;
  attempts: { txid: string; status: string; slot: string | null; error: string | null; at: string }[];
  createdAt: string;
  expiresAt: string;
}

function view(p: PayoutListing): PayoutView {
  const { order } = p;
  const hold = p.holds[0] ?? null;
  return {
    orderId: order.orderId,
    merchantId: order.merchantId,
    chain: order.chain,
    symbol: order.symbol,
    amount: formatAmount(order.amountBase, order.decimals),
    fee: order.fee,
    receiveAddress: order.receiveAddress,
    status: order.status,
    reason: order.reason,
    hold: hold?.kind ?? null,
    holdReason: hold?.reason ?? null,
    heldSince: hold ? new Date(hold.createdAt).toISOString() : null,
    txid: order.transaction?.txid ?? null,
    attempts: p.attempts.map((a) => ({
      txid: a.txHash,
      status: a.status,
      slot: a.slot,
      error: a.error,
      at: new Date(a.createdAt).toISOString(),
    })),
    createdAt: new Date(order.createdAt).toISOString(),
    expiresAt: new Date(order.expiresAt).toISOString(),
  };
}

/**
 * Payouts for `kassa payouts list`, newest first: of one merchant, in one status, those held as
 * stuck (their spend slot used by something Kassa cannot identify), or those awaiting approval.
 */
export async function listOperatorPayouts(
  deps: Pick<Deps, 'db'>,
  filter: { merchantId?: string; status?: string; stuck?: boolean; awaitingApproval?: boolean } = {},
): Promise<PayoutView[]> {
  if (filter.status !== undefined && !ORDER_STATUSES.includes(filter.status as OrderStatus))
    throw new AppError('validation', `Unknown status ${filter.status}; one of ${ORDER_STATUSES.join(', ')}.`);
  if (filter.stuck && filter.awaitingApproval)
    throw new AppError('validation', 'Choose --stuck or --awaiting-approval, not both.');
  const hold: HoldKind | undefined = filter.stuck
    ? 'stuck'
    : filter.awaitingApproval
      ? 'approval'
      : undefined;
  return (
    await deps.db.listPayouts({
      ...(filter.merchantId === undefined ? {} : { merchantId: filter.merchantId }),
      ...(filter.status === undefined ? {} : { status: filter.status as OrderStatus }),
      ...(hold === undefined ? {} : { hold }),
    })
  ).map(view);
}

/**
 * The payout an operator means by the orderId the merchant gave it; `merchantId` picks one when two
 * merchants used the same orderId (refused as ambiguous without it).
 */
export async function findOperatorPayout(
  deps: Pick<Deps, 'db'>,
  orderId: string,
  merchantId?: string,
): Promise<Order> {
  if (merchantId !== undefined) {
    const order = await deps.db.findOrderByMerchantOrderId(merchantId, orderId);
    if (order?.type !== 'PAYOUT')
      throw new AppError('order_not_found', `Merchant ${merchantId} has no payout ${orderId}.`);
    return order;
  }
  const found = await deps.db.listPayouts({ orderId, limit: 3 });
  if (found.length === 0) throw new AppError('order_not_found', `No payout ${orderId}.`);
  if (found.length > 1) {
    throw new AppError(
      'validation',
      `Several merchants used the orderId ${orderId} (${found.map((p) => p.order.merchantId).join(', ')}); add --merchant M.`,
    );
  }
  return (found[0] as PayoutListing).order;
}

type OperatorDeps = Pick<Deps, 'db' | 'clock' | 'logger'>;

/** Approves a payout waiting for approval; the worker signs it on its next pass. */
export async function approveOperatorPayout(
  deps: OperatorDeps,
  orderId: string,
  merchantId?: string,
): Promise<PayoutView> {
  const order = await findOperatorPayout(deps, orderId, merchantId);
  await deps.db.approvePayout({ orderRef: order.id, now: deps.clock.now() });
  deps.logger.info({ orderId, merchantId: order.merchantId }, 'payout approved');
  return viewOf(deps, order);
}

/** Rejects a payout waiting for approval: FAILED with the reason, webhook sent, frozen balance released. */
export async function rejectOperatorPayout(
  deps: OperatorDeps,
  orderId: string,
  reason: string,
  merchantId?: string,
): Promise<PayoutView> {
  const text = requireReason(reason);
  const order = await findOperatorPayout(deps, orderId, merchantId);
  await deps.db.rejectPayout({ orderRef: order.id, reason: text, now: deps.clock.now() });
  deps.logger.info({ orderId, merchantId: order.merchantId, reason: text }, 'payout rejected');
  return viewOf(deps, order);
}

/**
 * The operator checked the chain: a held payout's transaction did not land, so it is signed again
 * in a new slot on the worker's next pass. When the chain is reachable here it is asked once more
 * first, and a transaction of the payout that the chain knows refuses the retry.
 */
export async function retryOperatorPayout(
  deps: OperatorDeps,
  adapter: ChainAdapter | null,
  orderId: string,
  merchantId?: string,
): Promise<PayoutView> {
  const order = await findOperatorPayout(deps, orderId, merchantId);
  const listed = (await deps.db.listPayouts({ merchantId: order.merchantId, orderId: order.orderId }))[0];
  if (adapter && listed) {
    for (const a of listed.attempts) {
      const seen = await adapter.lookup(a.txHash);
      if (seen.state !== 'unknown') {
        throw new AppError(
          'state_conflict',
          `Payout ${orderId}'s transaction ${a.txHash} is ${seen.state === 'mined' ? `in block ${seen.blockNum}` : 'known to the node'}; it will be followed, not sent again.`,
        );
      }
    }
  }
  const { givenUp } = await deps.db.retryHeldPayout({ orderRef: order.id, now: deps.clock.now() });
  deps.logger.warn(
    { orderId, merchantId: order.merchantId, transactionsGivenUp: givenUp },
    'held payout retried by the operator; it will be signed in a new slot',
  );
  return viewOf(deps, order);
}

/** Ends a held payout FAILED with the reason (webhook sent, frozen balance released). */
export async function failOperatorPayout(
  deps: OperatorDeps,
  orderId: string,
  reason: string,
  merchantId?: string,
): Promise<PayoutView> {
  const text = requireReason(reason);
  const order = await findOperatorPayout(deps, orderId, merchantId);
  await deps.db.failHeldPayout({ orderRef: order.id, reason: text, now: deps.clock.now() });
  deps.logger.warn(
    { orderId, merchantId: order.merchantId, reason: text },
    'held payout failed by the operator',
  );
  return viewOf(deps, order);
}

function requireReason(reason: string): string {
  const text = reason.trim();
  if (text === '') throw new AppError('validation', 'A reason is required (--reason TEXT).');
  return text;
}

async function viewOf(deps: Pick<Deps, 'db'>, order: Order): Promise<PayoutView> {
  const [listed] = await deps.db.listPayouts({ merchantId: order.merchantId, orderId: order.orderId });
  if (!listed) throw new AppError('order_not_found', `No payout ${order.orderId}.`);
  return view(listed);
}
