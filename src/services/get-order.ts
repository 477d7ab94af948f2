import { AppError } from '../domain/errors.ts';
import type { Order } from '../domain/order.ts';
import type { Deps } from './deps.ts';

/** A merchant's own order by orderId; 404 when this merchant has no such order (another merchant's is invisible). */
export async function getOrder(deps: Pick<Deps, 'db'>, merchantId: string, orderId: string): Promise<Order> {
  const order = await deps.db.findOrderByMerchantOrderId(merchantId, orderId);
  if (!order) throw new AppError('order_not_found');
  return order;
}
