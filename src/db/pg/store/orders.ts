import type { OrderStore } from '../../store/orders.ts';
import type { PgDb } from '../client.ts';
import * as orderCreation from '../repositories/order-creation.ts';
import * as orderSearch from '../repositories/order-search.ts';
import * as orderStats from '../repositories/order-stats.ts';
import * as orderToken from '../repositories/order-token.ts';
import * as orders from '../repositories/orders.ts';
import * as transferTotals from '../repositories/transfer-totals.ts';

/** OrderStore on PostgreSQL (the contract: src/db/store/orders.ts). */
export function pgOrderStore(db: PgDb): OrderStore {
  return {
    findOrderByMerchantOrderId: (...args) => orders.findOrderByMerchantOrderId(db, ...args),
    findOrderById: (...args) => orders.findOrderById(db, ...args),
    orderParamsKey: (...args) => orders.orderParamsKey(db, ...args),
    findOrderToken: (...args) => orderToken.findOrderToken(db, ...args),
    createOrder: (...args) => orderCreation.createOrder(db, ...args),
    applyOrderTransitions: (...args) => orders.applyOrderTransitions(db, ...args),
    findExpirableOrders: (...args) => orders.findExpirableOrders(db, ...args),
    listOrdersPage: (...args) => orderSearch.listOrdersPage(db, ...args),
    orderStatsSlice: (...args) => orderStats.orderStatsSlice(db, ...args),
    openOrderCounts: () => orderStats.openOrderCounts(db),
    finalTransfersSlice: (...args) => transferTotals.finalTransfersSlice(db, ...args),
  };
}
