import { eq } from 'drizzle-orm';
import type { OrderToken } from '../../repositories/order-token.ts';
import type { PgExecutor } from '../client.ts';
import { orders } from '../schema/orders.ts';

/**
 * The token of an order by internal id (`ord_…`), or null when there is no such order: what an
 * XPay-shaped webhook adds to a stored event (base units need the decimals, XPay shows the contract).
 */
export async function findOrderToken(ex: PgExecutor, orderRef: string): Promise<OrderToken | null> {
  const rows = await ex
    .select({ decimals: orders.decimals, tokenContract: orders.tokenContract })
    .from(orders)
    .where(eq(orders.id, orderRef));
  return rows[0] ?? null;
}
