import type { OrderStore } from '../../store/orders.ts';
import type { PgDb } from '../client.ts';
import { notPorted } from './not-ported.ts';

/** OrderStore on PostgreSQL (the contract: src/db/store/orders.ts). */
export function pgOrderStore(_db: PgDb): OrderStore {
  return {
    findOrderByMerchantOrderId: notPorted('findOrderByMerchantOrderId'),
    findOrderById: notPorted('findOrderById'),
    orderParamsKey: notPorted('orderParamsKey'),
    findOrderToken: notPorted('findOrderToken'),
    createOrder: notPorted('createOrder'),
    applyOrderTransitions: notPorted('applyOrderTransitions'),
    findExpirableOrders: notPorted('findExpirableOrders'),
    listOrdersPage: notPorted('listOrdersPage'),
    orderStatsSlice: notPorted('orderStatsSlice'),
    openOrderCounts: notPorted('openOrderCounts'),
    finalTransfersSlice: notPorted('finalTransfersSlice'),
  };
}
