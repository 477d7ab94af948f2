import { getTableColumns, type InferSelectModel } from 'drizzle-orm';
import type { Chain } from '../../domain/chains.ts';
import type { Order } from '../../domain/order.ts';
import { orders } from '../schema/orders.ts';

export type OrderRow = InferSelectModel<typeof orders>;

const COLUMN_KEYS = Object.entries(getTableColumns(orders)).map(
  ([key, column]) => [column.name, key] as const,
);

/** Maps a row read with plain SQL (snake_case columns) to the drizzle row shape; undefined stays undefined. */
export function snakeRowToOrderRow(raw: unknown): OrderRow | undefined {
  if (!raw) return undefined;
  const source = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [column, key] of COLUMN_KEYS) out[key] = source[column];
  return out as OrderRow;
}

/** Maps a stored row to the domain Order (base units back to bigint). */
export function rowToOrder(row: OrderRow): Order {
  return {
    id: row.id,
    merchantId: row.merchantId,
    orderId: row.orderId,
    uid: row.uid,
    type: row.type,
    chain: row.chain as Chain,
    symbol: row.symbol,
    tokenContract: row.tokenContract,
    decimals: row.decimals,
    amount: row.amount,
    amountBase: BigInt(row.amountBase),
    fee: row.fee,
    status: row.status,
    reason: row.reason,
    address: row.address,
    receiveAddress: row.receiveAddress,
    expiresAt: row.expiresAt,
    receivedBase: BigInt(row.receivedBase),
    actualAmountBase: row.actualAmountBase === null ? null : BigInt(row.actualAmountBase),
    transaction:
      row.txId === null
        ? null
        : {
            chain: row.chain as Chain,
            symbol: row.symbol,
            txid: row.txId,
            from: row.txFrom ?? '',
            to: row.txTo ?? '',
            amountBase: BigInt(row.txAmountBase ?? '0'),
            blockNum: row.txBlockNum ?? 0,
            confirmedNum: row.txConfirmedNum ?? 0,
            status: row.txStatus ?? 'PENDING',
            timestamp: row.txTimestamp ?? 0,
          },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** The columns a transition may change, in domain terms. */
export interface OrderPatch {
  status?: Order['status'];
  reason?: string | null;
  receivedBase?: bigint;
  actualAmountBase?: bigint | null;
  transaction?: Order['transaction'];
}

/** Turns a patch into column values. */
export function patchToColumns(patch: OrderPatch): Partial<OrderRow> {
  const out: Partial<OrderRow> = {};
  if (patch.status !== undefined) out.status = patch.status;
  if (patch.reason !== undefined) out.reason = patch.reason;
  if (patch.receivedBase !== undefined) out.receivedBase = patch.receivedBase.toString();
  if (patch.actualAmountBase !== undefined) out.actualAmountBase = patch.actualAmountBase?.toString() ?? null;
  if (patch.transaction !== undefined) {
    const tx = patch.transaction;
    out.txId = tx?.txid ?? null;
    out.txFrom = tx?.from ?? null;
    out.txTo = tx?.to ?? null;
    out.txAmountBase = tx ? tx.amountBase.toString() : null;
    out.txBlockNum = tx?.blockNum ?? null;
    out.txConfirmedNum = tx?.confirmedNum ?? null;
    out.txStatus = tx?.status ?? null;
    out.txTimestamp = tx?.timestamp ?? null;
  }
  return out;
}
