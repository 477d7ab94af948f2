import { expect, it } from 'vitest';
import { AppError } from '../../domain/errors.ts';
import { create, derive, store, T0 } from './context.ts';
import { ordersListsContract } from './orders-lists.contract.ts';
import { ordersRacesContract } from './orders-races.contract.ts';

/** The Store contract on orders: creation with a deposit address, transitions with their webhook events (../store/orders.ts); it runs inside storeContract's describe. */
export function ordersContract(): void {
  it('creates an order once per merchant orderId, each with a deposit address of its own', async () => {
    await store.addToDepositPool('evm', 2, derive, T0);
    expect(await store.freeDepositAddressCount('evm')).toBe(2);
    const first = await create('A-1');
    const again = await create('A-1', { amount: '99', amountBase: 99_000_000n });
    const second = await create('A-2');
    const third = await create('A-3'); // the pool is empty now: derived on the spot
    expect(first.created).toBe(true);
    expect(again.created).toBe(false);
    expect(again.order.id).toBe(first.order.id);
    expect(again.order.amountBase).toBe(10_000_000n); // the stored order, not the retry's
    expect(again.paramsKey).toBe('params-A-1');
    const addresses = [first, second, third].map((r) => r.order.address);
    expect(new Set(addresses).size).toBe(3);
    expect(await store.freeDepositAddressCount('evm')).toBe(0);
    expect((await store.findOrderByMerchantOrderId('mch_a', 'A-2'))?.id).toBe(second.order.id);
    expect((await store.findOrderById(third.order.id))?.orderId).toBe('A-3');
    expect(await store.orderParamsKey(first.order.id)).toBe('params-A-1');
  });

  it('applies a transition with its webhook event, and a batch with a stale order not at all', async () => {
    const { order: a } = await create('A-1');
    const { order: b } = await create('A-2');
    const [pending] = await store.applyOrderTransitions(
      [{ order: a, patch: { status: 'PENDING', receivedBase: 1n } }],
      T0 + 1,
    );
    expect(pending?.status).toBe('PENDING');
    const events = await store.listWebhookEvents({ order: a.id, limit: 10 });
    expect(events.map((e) => e.notifyType)).toEqual(['ORDER_PENDING']);

    // `a` as read before the first transition is stale: the whole batch is refused
    await expect(
      store.applyOrderTransitions(
        [
          { order: b, patch: { status: 'EXPIRED' } },
          { order: a, patch: { status: 'EXPIRED' } },
        ],
        T0 + 2,
      ),
    ).rejects.toBeInstanceOf(AppError);
    expect((await store.findOrderById(b.id))?.status).toBe('INIT');
    expect((await store.findOrderById(a.id))?.status).toBe('PENDING');
    expect(await store.listWebhookEvents({ order: b.id, limit: 10 })).toEqual([]);
  });

  ordersRacesContract();
  ordersListsContract();
}
