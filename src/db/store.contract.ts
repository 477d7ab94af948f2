import { describe, expect, it } from 'vitest';
import { AppError } from '../domain/errors.ts';
import { create, type OpenedStore, openStoreForEachTest, store, T0 } from './store-contract/context.ts';
import { dashboardAccountsContract } from './store-contract/dashboard-accounts.contract.ts';
import { merchantsContract } from './store-contract/merchants.contract.ts';
import { moneyContract } from './store-contract/money.contract.ts';
import { operationsContract } from './store-contract/operations.contract.ts';
import { ordersContract } from './store-contract/orders.contract.ts';
import { reconciliationContract } from './store-contract/reconciliation.contract.ts';
import { scanningContract } from './store-contract/scanning.contract.ts';
import { sweepingContract } from './store-contract/sweeping.contract.ts';
import { webhooksContract } from './store-contract/webhooks.contract.ts';
import { workerLeasesContract } from './store-contract/worker-leases.contract.ts';

export type { OpenedStore } from './store-contract/context.ts';

/**
 * The behaviour every implementation of the Store port keeps (DESIGN.md section 10): each
 * function is one atomic unit that writes all it takes or nothing, a guard miss rejects, ingest is
 * idempotent on natural keys, and failures arrive as rejected promises. Run it against an
 * implementation with `storeContract('SQLite', open)`; the PostgreSQL implementation runs the same
 * suite. `open` gives a fresh, migrated, empty store for each test.
 */
export function storeContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(`the Store port on ${name}`, () => {
    openStoreForEachTest(open);

    it('answers every call with a promise, and a refusal as a rejection, never a synchronous throw', async () => {
      const { order } = await create('A-1');
      const stale = { ...order, status: 'PENDING' as const };
      let pending: Promise<unknown> | undefined;
      expect(() => {
        pending = store.applyOrderTransitions([{ order: stale, patch: { status: 'SUCCESS' } }], T0);
      }).not.toThrow();
      await expect(pending).rejects.toBeInstanceOf(AppError);
    });

    merchantsContract();
    dashboardAccountsContract();
    ordersContract();
    scanningContract();
    operationsContract();
    moneyContract();
    webhooksContract();
    sweepingContract();
    reconciliationContract();
    workerLeasesContract();
  });
}
