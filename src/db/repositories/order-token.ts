import { eq } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { orders } from '../schema/orders.ts';

/** The token an order is in: its decimals and contract (null for a native coin). */
export interface OrderToken {
  decimals: number;
  tokenContract: string | null;
}

/**
 * The token of an order by internal id (`ord_…`), or null when there is no such order: what an
 * XPay-shaped webhook adds to a stored event (base units need the decimals, XPay shows the contract).
 */
export async function findOrderToken(db: Db, orderRef: string): Promise<OrderToken | null> {
  return (
    db
      .select({ decimals: orders.decimals, tokenContract: orders.tokenContract })
      .from(orders)
      .where(eq(orders.id, orderRef))
      .get() ?? null
  );
}
