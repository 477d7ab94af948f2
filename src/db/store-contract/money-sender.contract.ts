import { expect, it } from 'vitest';
import { store, T0 } from './context.ts';
import { accept, attempt, current, HOT, sign } from './money-fixtures.contract.ts';

const free = { freeze: null, judge: () => {} };

/**
 * The Store contract on what the payout sender and the dashboard read (../store/money.ts
 * payoutsToSend, highestNonce, recordedSpends, openPayouts, attemptsOfOrders). It runs inside
 * moneyContract.
 */
export function moneySenderContract(): void {
  it('hands the sender INIT payouts and those whose every slot is dead, oldest first, never held ones', async () => {
    await accept('INIT', { ...free, now: T0 + 1 });
    const waiting = (await accept('APPROVAL', { ...free, approval: 'Waiting for approval.', now: T0 })).order;
    const live = (await accept('LIVE', { ...free, now: T0 + 2 })).order;
    const dead = (await accept('DEAD', { ...free, now: T0 - 5 })).order;
    const stuck = (await accept('STUCK', { ...free, now: T0 + 3 })).order;
    await accept('TRON', { ...free, order: { chain: 'TRON' } });
    const done = (await accept('DONE', free)).order;
    await store.applyOrderTransitions([{ order: done, patch: { status: 'FAILED' } }], T0);
    await sign(live, attempt('pat_live', live, 1));
    await sign(dead, attempt('pat_dead', dead, 2));
    await sign(stuck, attempt('pat_stuck', stuck, 3));
    await store.recordPayoutProgress({
      attempts: [{ id: 'pat_dead', status: 'dropped' }],
      transitions: [],
      now: T0 + 5,
    });
    await store.holdPayout({
      orderRef: stuck.id,
      attempts: ['pat_stuck'],
      reason: 'nonce 3 used',
      now: T0 + 5,
    });
    const due = await store.payoutsToSend('ETH', 20);
    expect(due.map((o) => [o.orderId, o.status, o.retriedByOperator])).toEqual([
      ['DEAD', 'PENDING', false],
      ['INIT', 'INIT', false],
    ]);
    expect((await store.payoutsToSend('ETH', 1)).map((o) => o.orderId)).toEqual(['DEAD']);
    expect((await store.payoutsToSend('TRON', 20)).map((o) => o.orderId)).toEqual(['TRON']);
    // the operator's retry hands it back, marked, until it is signed again
    await store.retryHeldPayout({ orderRef: stuck.id, now: T0 + 6 });
    const retried = (await store.payoutsToSend('ETH', 20)).find((o) => o.orderId === 'STUCK');
    expect(retried?.retriedByOperator).toBe(true);
    await sign(await current(stuck), attempt('pat_stuck2', stuck, 4), T0 + 7);
    expect((await store.payoutsToSend('ETH', 20)).map((o) => o.orderId)).toEqual(['DEAD', 'INIT']);
    // approved, the waiting one is handed over too
    await store.approvePayout({ orderRef: waiting.id, now: T0 + 8 });
    expect((await store.payoutsToSend('ETH', 20)).map((o) => o.orderId)).toEqual([
      'DEAD',
      'APPROVAL',
      'INIT',
    ]);
  });

  it('knows the highest nonce signed from a wallet, dropped ones too, and who else used a nonce', async () => {
    expect(await store.highestNonce('ETH', HOT)).toBe(-1);
    const a = (await accept('A', free)).order;
    const b = (await accept('B', free)).order;
    await sign(a, attempt('pat_a', a, 7));
    await store.recordPayoutProgress({
      attempts: [{ id: 'pat_a', status: 'dropped' }],
      transitions: [],
      now: T0 + 2,
    });
    await sign(await current(a), attempt('pat_a2', a, 9), T0 + 3);
    await sign(b, attempt('pat_b', b, 8), T0 + 4);
    expect(await store.highestNonce('ETH', HOT)).toBe(9);
    expect(await store.highestNonce('ETH', '0xother')).toBe(-1);
    expect(await store.highestNonce('BSC', HOT)).toBe(-1);
    const spends = { chain: 'ETH', from: HOT };
    expect((await store.recordedSpends({ ...spends, exceptOrder: b.id, nonce: 7 })).map((s) => s.id)).toEqual(
      ['pat_a'],
    );
    expect(await store.recordedSpends({ ...spends, exceptOrder: a.id, nonce: 7 })).toEqual([]);
    // without a nonce (TRON, Sui): every other payout's, newest first, at most `limit`
    expect(
      (await store.recordedSpends({ ...spends, exceptOrder: b.id, nonce: null })).map((s) => s.id),
    ).toEqual(['pat_a2', 'pat_a']);
    expect(await store.recordedSpends({ ...spends, exceptOrder: 'x', nonce: null, limit: 2 })).toHaveLength(
      2,
    );
  });

  it('lists the payouts not final yet oldest first, with their attempts grouped by payout', async () => {
    const a = (await accept('A', { ...free, now: T0 + 2 })).order;
    const b = (await accept('B', { ...free, now: T0 + 1 })).order;
    const c = (await accept('C', { ...free, now: T0 })).order;
    await store.applyOrderTransitions([{ order: c, patch: { status: 'EXPIRED' } }], T0 + 3);
    await sign(a, attempt('pat_a', a, 1), T0 + 4);
    await store.recordPayoutProgress({
      attempts: [{ id: 'pat_a', status: 'dropped' }],
      transitions: [],
      now: T0 + 5,
    });
    await sign(await current(a), attempt('pat_a2', a, 2), T0 + 6);
    expect((await store.openPayouts(10)).map((o) => [o.orderId, o.status])).toEqual([
      ['B', 'INIT'],
      ['A', 'PENDING'],
    ]);
    expect((await store.openPayouts(1)).map((o) => o.orderId)).toEqual(['B']);
    const grouped = await store.attemptsOfOrders([a.id, b.id, c.id]);
    expect([...grouped.keys()]).toEqual([a.id]);
    expect(grouped.get(a.id)?.map((x) => x.id)).toEqual(['pat_a', 'pat_a2']);
    expect(await store.attemptsOfOrders([])).toEqual(new Map());
  });
}
