import { activeChain } from '../config/active-chain.ts';
import type { WebhookAttempt } from '../db/store.ts';
import { AppError } from '../domain/errors.ts';
import { formatAmount } from '../domain/money.ts';
import type { Order } from '../domain/order.ts';
import { paymentUrlFor } from './create-collection.ts';
import type { Deps } from './deps.ts';
import { explorerLink } from './get-checkout.ts';
import { MerchantDirectory } from './merchant-directory.ts';

/** One line of an order's history. */
export interface TimelineEntry {
  at: number;
  kind: 'created' | 'status' | 'transfer' | 'attempt';
  /** The status reached (status entries), the transfer's or attempt's state otherwise. */
  state: string;
  /** Reason, amount or error: what a person reads beside the state. */
  detail: string | null;
}

/** A transfer that paid (or tried to pay) a collection. */
export interface OrderTransferView {
  txid: string;
  explorerUrl: string | null;
  from: string;
  amount: string;
  blockNum: number;
  status: string;
  seenAt: number;
}

/** A signed payout transaction. */
export interface PayoutAttemptView {
  txHash: string;
  explorerUrl: string | null;
  nonce: number | null;
  status: string;
  blockNum: number | null;
  error: string | null;
  signedAt: number;
  updatedAt: number;
}

/** A webhook event of the order with every delivery attempt. */
export interface OrderWebhookView {
  eventId: string;
  notifyType: string;
  status: 'pending' | 'delivered' | 'failed';
  createdAt: number;
  nextAttemptAt: number | null;
  deliveredAt: number | null;
  attempts: WebhookAttempt[];
}

/** Everything the order page shows. */
export interface OrderDetail {
  order: Order;
  merchant: { id: string; name: string | null; kind: string; status: string } | null;
  /** Amounts formatted from base units (never rounded). */
  amounts: { requested: string; received: string; actual: string | null };
  explorerUrl: string | null;
  /** The hosted checkout link of a collection of an active merchant; null otherwise. */
  checkoutUrl: string | null;
  timeline: TimelineEntry[];
  transfers: OrderTransferView[];
  attempts: PayoutAttemptView[];
  webhooks: OrderWebhookView[];
}

function statusOf(data: string): { status: string; reason: string | null } {
  try {
    const parsed = JSON.parse(data) as { status?: unknown; reason?: unknown };
    return {
      status: typeof parsed.status === 'string' ? parsed.status : '?',
      reason: typeof parsed.reason === 'string' ? parsed.reason : null,
    };
  } catch {
    return { status: '?', reason: null };
  }
}

/**
 * One order by its internal id with its history: the status changes (each written with its webhook
 * event, in the same transaction, so the outbox is the record of them), the transfers that paid it
 * and the payout transactions signed for it, each with an explorer link; its webhooks with every
 * attempt (status code, latency); and the checkout link. Throws `order_not_found`.
 */
export async function getOrderDetail(
  deps: Pick<Deps, 'db' | 'config' | 'box' | 'clock'>,
  id: string,
): Promise<OrderDetail> {
  const order = await deps.db.findOrderById(id);
  if (!order) throw new AppError('order_not_found');
  const chain = activeChain(deps.config, order.chain);
  const link = (txid: string) => explorerLink(chain.explorerTx, txid);
  const merchant = await deps.db.findMerchant(order.merchantId);
  const transfers = ((await deps.db.transfersOfOrders([order.id])).get(order.id) ?? [])
    .sort((a, b) => a.createdAt - b.createdAt)
    .map((t) => ({
      txid: t.txid,
      explorerUrl: link(t.txid),
      from: t.from,
      amount: formatAmount(t.amountBase, order.decimals),
      blockNum: t.blockNum,
      status: t.status,
      seenAt: t.createdAt,
    }));
  const attempts = (await deps.db.attemptsOfOrder(order.id)).map((a) => ({
    txHash: a.txHash,
    explorerUrl: link(a.txHash),
    nonce: a.nonce,
    status: a.status,
    blockNum: a.blockNum,
    error: a.error,
    signedAt: a.createdAt,
    updatedAt: a.updatedAt,
  }));
  const events = (await deps.db.listWebhookEvents({ order: order.id, limit: 200 })).sort(
    (a, b) => a.orderVersion - b.orderVersion || a.createdAt - b.createdAt,
  );
  const webhooks = await Promise.all(
    events.map(async (e) => ({
      eventId: e.id,
      notifyType: e.notifyType,
      status: e.status,
      createdAt: e.createdAt,
      nextAttemptAt: e.status === 'pending' ? e.nextAttemptAt : null,
      deliveredAt: e.deliveredAt,
      attempts: await deps.db.listWebhookAttempts(e.id),
    })),
  );
  const timeline: TimelineEntry[] = [
    { at: order.createdAt, kind: 'created' as const, state: 'INIT', detail: null },
    ...events.map((e) => {
      const { status, reason } = statusOf(e.data);
      return { at: e.createdAt, kind: 'status' as const, state: status, detail: reason };
    }),
    ...transfers.map((t) => ({
      at: t.seenAt,
      kind: 'transfer' as const,
      state: t.status,
      detail: `${t.amount} ${order.symbol} in block ${t.blockNum}`,
    })),
    ...attempts.map((a) => ({ at: a.signedAt, kind: 'attempt' as const, state: a.status, detail: a.error })),
  ].sort((a, b) => a.at - b.at);
  let checkoutUrl: string | null = null;
  if (order.type === 'COLLECTION' && merchant?.status === 'active' && deps.box) {
    const active = await new MerchantDirectory(deps).byId(merchant.id);
    if (active) checkoutUrl = paymentUrlFor(deps, active, order.orderId);
  }
  return {
    order,
    merchant: merchant
      ? { id: merchant.id, name: merchant.name, kind: merchant.kind, status: merchant.status }
      : null,
    amounts: {
      requested: formatAmount(order.amountBase, order.decimals),
      received: formatAmount(order.receivedBase, order.decimals),
      actual: order.actualAmountBase === null ? null : formatAmount(order.actualAmountBase, order.decimals),
    },
    explorerUrl: order.transaction ? link(order.transaction.txid) : null,
    checkoutUrl,
    timeline,
    transfers,
    attempts,
    webhooks,
  };
}
