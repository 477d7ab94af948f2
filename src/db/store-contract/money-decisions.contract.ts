import { expect, it } from 'vitest';
import type { Order } from '../../domain/order.ts';
import { store, T0 } from './context.ts';
import {
  accept,
  attempt,
  current,
  expectLedgerConsistent,
  fulfilled,
  fund,
  rejected,
  sign,
  together,
} from './money-fixtures.contract.ts';

const approval = 'Waiting for approval.';

/** A payout of 100 whose only transaction (nonce `nonce`) the tracker could not explain: held. */
async function heldPayout(orderId: string, nonce: number): Promise<Order> {
  const { order } = await accept(orderId, { amountBase: 100n });
  await sign(order, attempt(`pat_${orderId}`, order, nonce));
  const attempts = [`pat_${orderId}`];
  expect(await store.holdPayout({ orderRef: order.id, attempts, reason: 'nonce used', now: T0 + 2 })).toBe(
    'held',
  );
  return current(order);
}

/**
 * The Store contract on the decisions a payout waits for (../store/money.ts holdPayout,
 * approvePayout, rejectPayout, retryHeldPayout, failHeldPayout, listPayouts, heldPayoutCounts): each
 * taken once, the money following the decision, and two decisions at once never both winning. It
 * runs inside moneyContract.
 */
export function moneyDecisionsContract(): void {
  it('approves or rejects a payout waiting for approval once, releasing what a rejected one froze', async () => {
    await fund(1_000n);
    const a = (await accept('A', { amountBase: 300n, approval })).order;
    const b = (await accept('B', { amountBase: 200n, approval })).order;
    const approved = await store.approvePayout({ orderRef: a.id, now: T0 + 1 });
    expect(approved).toMatchObject({ status: 'INIT', reason: null });
    await expect(store.approvePayout({ orderRef: a.id, now: T0 + 2 })).rejects.toMatchObject({
      code: 'state_conflict',
      detail: 'Payout A is not waiting for approval (status INIT); nothing to approve.',
    });
    const refused = await store.rejectPayout({ orderRef: b.id, reason: 'unknown recipient', now: T0 + 3 });
    expect(refused).toMatchObject({ status: 'FAILED', reason: 'unknown recipient' });
    await expect(store.rejectPayout({ orderRef: b.id, reason: 'again', now: T0 + 4 })).rejects.toMatchObject({
      code: 'state_conflict',
      detail: 'Payout B is not waiting for approval (status FAILED); nothing to reject.',
    });
    await expect(store.approvePayout({ orderRef: 'ord_none', now: T0 })).rejects.toMatchObject({
      code: 'order_not_found',
    });
    expect((await store.holdHistoryOf(b.id)).map((h) => [h.resolution, h.note, h.resolvedAt])).toEqual([
      ['rejected', 'unknown recipient', T0 + 3],
    ]);
    expect((await store.listBalances())[0]).toMatchObject({ available: 700n, frozen: 300n });
    await expectLedgerConsistent();
  });

  it('lets one of an approve and a reject sent at once win, 5 times each', async () => {
    await fund(1_000n);
    const { order } = await accept('P-1', { amountBase: 400n, approval });
    const results = await together(10, (i) =>
      i % 2 === 0
        ? store.approvePayout({ orderRef: order.id, now: T0 + 1 })
        : store.rejectPayout({ orderRef: order.id, reason: `no ${i}`, now: T0 + 1 }),
    );
    const [winner] = fulfilled(results);
    expect(fulfilled(results)).toHaveLength(1);
    expect(rejected(results).every((e) => e.code === 'state_conflict')).toBe(true);
    expect((await store.holdHistoryOf(order.id)).map((h) => h.resolution)).toHaveLength(1);
    const balance = (await store.listBalances())[0];
    if (winner?.status === 'FAILED') expect(balance).toMatchObject({ available: 1_000n, frozen: 0n });
    else expect(balance).toMatchObject({ available: 600n, frozen: 400n });
    expect((await current(order)).status).toBe(winner?.status);
    await expectLedgerConsistent();
  });

  it('holds a stuck payout once and only while its transactions are followed; retry and fail decide it', async () => {
    await fund(1_000n);
    const a = await heldPayout('A', 1);
    const hold = { orderRef: a.id, attempts: ['pat_A'], reason: 'nonce used', now: T0 + 3 };
    expect(await store.holdPayout(hold)).toBe('still held');
    expect(await store.holdPayout({ ...hold, attempts: ['pat_unknown'] })).toBe('decided');
    expect(await store.retryHeldPayout({ orderRef: a.id, now: T0 + 4 })).toMatchObject({ givenUp: 1 });
    expect((await store.attemptsOfOrder(a.id))[0]).toMatchObject({
      status: 'dropped',
      error: 'given up by the operator (kassa payouts retry)',
    });
    // the tracker's verdict on what the operator already gave up does not hold it again
    expect(await store.holdPayout(hold)).toBe('decided');
    await expect(store.retryHeldPayout({ orderRef: a.id, now: T0 + 5 })).rejects.toMatchObject({
      code: 'state_conflict',
      detail: 'Payout A is not held (status PENDING); nothing to retry.',
    });
    const b = await heldPayout('B', 2);
    const failed = await store.failHeldPayout({ orderRef: b.id, reason: 'checked: never sent', now: T0 + 6 });
    expect(failed).toMatchObject({ status: 'FAILED', reason: 'checked: never sent' });
    expect((await store.attemptsOfOrder(b.id))[0]?.error).toBe(
      'given up by the operator: checked: never sent',
    );
    expect((await store.holdHistoryOf(b.id)).map((h) => [h.resolution, h.note])).toEqual([
      ['failed', 'checked: never sent'],
    ]);
    expect((await store.listBalances())[0]).toMatchObject({ available: 900n, frozen: 100n });
    await expectLedgerConsistent();
  });

  it('lets one of 10 operators retrying or failing a held payout at once decide it', async () => {
    await fund(1_000n);
    const order = await heldPayout('P-1', 1);
    const results = await together<unknown>(10, (i) =>
      i % 2 === 0
        ? store.retryHeldPayout({ orderRef: order.id, now: T0 + 3 })
        : store.failHeldPayout({ orderRef: order.id, reason: `fail ${i}`, now: T0 + 3 }),
    );
    expect(fulfilled(results)).toHaveLength(1);
    expect(rejected(results).every((e) => e.code === 'state_conflict')).toBe(true);
    expect((await store.holdHistoryOf(order.id)).filter((h) => h.resolution !== null)).toHaveLength(1);
    await expectLedgerConsistent();
  });

  it('never leaves a payout held after the operator retried it while the tracker was holding it', async () => {
    await fund(1_000n);
    const held = [];
    for (let i = 0; i < 8; i++) held.push(await heldPayout(`P-${i}`, i));
    // the tracker judges the same transactions again while the operator retries every payout
    await Promise.all(
      held.flatMap((order) => [
        store.holdPayout({
          orderRef: order.id,
          attempts: [`pat_${order.orderId}`],
          reason: 'again',
          now: T0 + 3,
        }),
        store.retryHeldPayout({ orderRef: order.id, now: T0 + 3 }),
      ]),
    );
    const open = await store.holdsOf(held.map((o) => o.id));
    expect([...open.keys()]).toEqual([]);
    expect((await store.payoutsToSend('ETH', 20)).map((o) => o.orderId).sort()).toEqual(
      held.map((o) => o.orderId).sort(),
    );
  });

  it('lists payouts newest first with their open holds and attempts, by merchant, status, hold or orderId', async () => {
    await fund(1_000n);
    const a = await heldPayout('A', 1);
    const b = (await accept('B', { approval, now: T0 + 5 })).order;
    await accept('D', { now: T0 + 7, freeze: null, judge: () => {}, order: { chain: 'TRON' } });
    const listed = await store.listPayouts();
    expect(listed.map((p) => p.order.orderId)).toEqual(['D', 'B', 'A']);
    const [, onB, onA] = listed;
    expect(onB?.holds.map((h) => h.kind)).toEqual(['approval']);
    expect(onA?.holds.map((h) => h.kind)).toEqual(['stuck']);
    expect(onA?.attempts.map((x) => x.id)).toEqual(['pat_A']);
    expect((await store.listPayouts({ hold: 'stuck' })).map((p) => p.order.id)).toEqual([a.id]);
    expect((await store.listPayouts({ hold: 'approval' })).map((p) => p.order.id)).toEqual([b.id]);
    expect((await store.listPayouts({ status: 'PENDING' })).map((p) => p.order.orderId)).toEqual(['A']);
    expect((await store.listPayouts({ orderId: 'B' })).map((p) => p.order.orderId)).toEqual(['B']);
    expect((await store.listPayouts({ merchantId: 'mch_other' })).length).toBe(0);
    expect((await store.listPayouts({ limit: 1 })).map((p) => p.order.orderId)).toEqual(['D']);
    const counts = await store.heldPayoutCounts();
    expect(counts.sort((x, y) => x.kind.localeCompare(y.kind))).toEqual([
      { chain: 'ETH', kind: 'approval', n: 1 },
      { chain: 'ETH', kind: 'stuck', n: 1 },
    ]);
    await store.retryHeldPayout({ orderRef: a.id, now: T0 + 8 });
    expect(await store.listPayouts({ hold: 'stuck' })).toEqual([]);
  });
}
