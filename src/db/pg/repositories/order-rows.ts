import type { InferSelectModel } from 'drizzle-orm';
import type { OrderRow } from '../../repositories/order-rows.ts';
import type { orders } from '../schema/orders.ts';

// The order's row is the same on both engines (same column names, INTEGER read back as numbers), so
// the pure mappers of the SQLite repository serve PostgreSQL too; this file only re-exports them.
export {
  type OrderPatch,
  type OrderRow,
  patchToColumns,
  rowToOrder,
  snakeRowToOrderRow,
} from '../../repositories/order-rows.ts';

/** Fails to compile the day the two schemas' order rows stop being interchangeable. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameRow: Same<InferSelectModel<typeof orders>, OrderRow> = true;
void sameRow;
