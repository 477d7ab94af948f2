import { and, count, eq, isNull } from 'drizzle-orm';
import type { Family } from '../../domain/chains.ts';
import { type Db, writeTransaction } from '../client.ts';
import { depositAddresses } from '../schema/deposit-addresses.ts';
import { nextDepositIndex } from './order-creation.ts';

/** How many derived addresses of a family wait in the pool. */
export function freeDepositAddressCount(db: Db, family: Family): number {
  return (
    db
      .select({ n: count() })
      .from(depositAddresses)
      .where(and(eq(depositAddresses.family, family), isNull(depositAddresses.orderRef)))
      .get()?.n ?? 0
  );
}

/**
 * Adds derived addresses to the pool, starting at the next unused index. `derive` runs inside the
 * write transaction so indexes cannot collide with a concurrent allocation.
 */
export function addToDepositPool(
  db: Db,
  family: Family,
  howMany: number,
  derive: (family: Family, index: number) => string,
  now: number,
): number {
  return writeTransaction(db, () => {
    const start = nextDepositIndex(db, family);
    for (let i = 0; i < howMany; i++) {
      db.insert(depositAddresses)
        .values({ family, idx: start + i, address: derive(family, start + i), createdAt: now })
        .run();
    }
    return howMany;
  });
}

/** The deposit address rows of a family with a given address (lookups by scanners and tests). */
export function findDepositAddress(db: Db, address: string) {
  return db.select().from(depositAddresses).where(eq(depositAddresses.address, address)).get() ?? null;
}
