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

const free = { freeze: null, judge: () => {} };

/**
 * The Store contract on signed payout transactions (../store/money.ts commitSignedPayout,
 * recordPayoutProgress): a payout has one spend slot that may land at a time, stored with its move to
 * PENDING before anything is sent; a slot is never another payout's; what the chain says moves the
 * payout and its money at once. It runs inside moneyContract.
 */
export function moneyAttemptsContract(): void {
  it('stores a signed transaction with the payout’s move to PENDING, or nothing when the payout moved', async () => {
    const { order } = await accept('P-1', free);
    await sign(order, attempt('pat_1', order, 5));
    expect((await current(order)).status).toBe('PENDING');
    expect(await store.attemptsOfOrder(order.id)).toMatchObject([
      { id: 'pat_1', nonce: 5, status: 'signed', slot: 'nonce 5', blockNum: null, createdAt: T0 + 1 },
    ]);
    expect((await store.liveAttempts('ETH')).map((a) => a.id)).toEqual(['pat_1']);
    expect(await store.liveAttempts('TRON')).toEqual([]);
    // signed again from the order as first read: the payout moved meanwhile, nothing is stored
    await expect(sign(order, attempt('pat_2', order, 6))).rejects.toMatchObject({ code: 'state_conflict' });
    expect((await store.attemptsOfOrder(order.id)).map((a) => a.id)).toEqual(['pat_1']);
  });

  it('re-prices only in the payout’s own slot, and gives a payout a new slot only once the old one is dead', async () => {
    const { order } = await accept('P-1', free);
    const other = (await accept('P-2', free)).order;
    await sign(order, attempt('pat_1', order, 5));
    const pending = await current(order);
    await sign(pending, attempt('pat_1b', order, 5, { replacesAttempt: 'pat_1' }), T0 + 2);
    const replaceRefused = {
      code: 'state_conflict',
      detail: 'A replacement must reuse the slot of the payout it replaces.',
    };
    await expect(
      sign(await current(order), attempt('pat_1c', order, 6, { replacesAttempt: 'pat_1' })),
    ).rejects.toMatchObject(replaceRefused);
    await expect(sign(other, attempt('pat_2', other, 5, { replacesAttempt: 'pat_1' }))).rejects.toMatchObject(
      replaceRefused,
    );
    // a nonce is one payout's slot: another payout cannot take it, nothing of it is written
    await expect(sign(other, attempt('pat_2', other, 5))).rejects.toBeDefined();
    expect(await store.attemptsOfOrder(other.id)).toEqual([]);
    expect((await current(other)).status).toBe('INIT');
    // a second slot while the first may still land is refused
    await expect(sign(await current(order), attempt('pat_new', order, 9))).rejects.toMatchObject({
      code: 'state_conflict',
      detail: expect.stringContaining('already has a transaction that may land'),
    });
    await store.recordPayoutProgress({
      attempts: [
        { id: 'pat_1', status: 'replaced' },
        { id: 'pat_1b', status: 'dropped', error: 'nonce used by pat_x' },
      ],
      transitions: [],
      now: T0 + 3,
    });
    await sign(await current(order), attempt('pat_new', order, 9), T0 + 4);
    expect((await store.attemptsOfOrder(order.id)).map((a) => [a.id, a.status, a.error])).toEqual([
      ['pat_1', 'replaced', null],
      ['pat_1b', 'dropped', 'nonce used by pat_x'],
      ['pat_new', 'signed', null],
    ]);
  });

  it('gives one of 10 concurrent senders the payout, INIT or waiting for a new slot', async () => {
    const { order } = await accept('P-1', free);
    const first = await together(10, (i) => sign(order, attempt(`pat_a${i}`, order, 10 + i)));
    expect(fulfilled(first)).toHaveLength(1);
    expect(rejected(first).every((e) => e.code === 'state_conflict')).toBe(true);
    const [signed] = await store.attemptsOfOrder(order.id);
    await store.recordPayoutProgress({
      attempts: [{ id: signed?.id as string, status: 'dropped' }],
      transitions: [],
      now: T0 + 2,
    });
    // PENDING with its only slot dead: a new slot each, from the same read of the payout
    const pending = await current(order);
    const again = await together(10, (i) => sign(pending, attempt(`pat_b${i}`, order, 30 + i), T0 + 3));
    expect(fulfilled(again)).toHaveLength(1);
    expect(rejected(again).every((e) => e.code === 'state_conflict')).toBe(true);
    expect((await store.attemptsOfOrder(order.id)).filter((a) => a.status === 'signed')).toHaveLength(1);
  });

  it('gives a nonce to one of 10 payouts signed at once in it, and leaves the others as they were', async () => {
    const orders: Order[] = [];
    for (let i = 0; i < 10; i++) orders.push((await accept(`P-${i}`, free)).order);
    const results = await together(10, (i) => sign(orders[i]!, attempt(`pat_${i}`, orders[i]!, 42)));
    expect(fulfilled(results)).toHaveLength(1);
    expect(await store.liveAttempts('ETH')).toHaveLength(1);
    const stored = await Promise.all(orders.map(current));
    expect(stored.filter((o) => o.status === 'PENDING')).toHaveLength(1);
    expect(stored.filter((o) => o.status === 'INIT')).toHaveLength(9);
  });

  it('debits a payout that succeeded, releases one that failed, and closes the hold of one that landed', async () => {
    await fund(1_000n);
    const a = (await accept('A', { amountBase: 300n })).order;
    const b = (await accept('B', { amountBase: 200n })).order;
    await sign(a, attempt('pat_a', a, 1));
    await sign(b, attempt('pat_b', b, 2));
    await store.recordPayoutProgress({
      attempts: [{ id: 'pat_a', status: 'mined', blockNum: 7 }],
      transitions: [{ order: await current(a), patch: { status: 'PENDING_CONFIRMATION' } }],
      now: T0 + 2,
    });
    await store.recordPayoutProgress({
      attempts: [{ id: 'pat_a', status: 'final' }],
      transitions: [{ order: await current(a), patch: { status: 'SUCCESS' } }],
      now: T0 + 3,
    });
    expect((await store.attemptsOfOrder(a.id))[0]).toMatchObject({
      status: 'final',
      blockNum: 7,
      updatedAt: T0 + 3,
    });
    expect((await store.listBalances())[0]).toMatchObject({ available: 500n, frozen: 200n });
    expect(
      await store.holdPayout({ orderRef: b.id, attempts: ['pat_b'], reason: 'nonce 2 used', now: T0 + 4 }),
    ).toBe('held');
    await store.recordPayoutProgress({
      attempts: [{ id: 'pat_b', status: 'mined', blockNum: 8 }],
      transitions: [{ order: await current(b), patch: { status: 'PENDING_CONFIRMATION' } }],
      landed: [b.id],
      now: T0 + 5,
    });
    expect((await store.holdHistoryOf(b.id)).map((h) => [h.kind, h.resolution, h.resolvedAt])).toEqual([
      ['stuck', 'landed', T0 + 5],
    ]);
    // a stale transition rolls back the attempts' news that came with it
    const stale = { order: b, patch: { status: 'FAILED' as const, reason: 'reverted' } };
    await expect(
      store.recordPayoutProgress({
        attempts: [{ id: 'pat_b', status: 'failed' }],
        transitions: [stale],
        now: T0 + 6,
      }),
    ).rejects.toMatchObject({ code: 'state_conflict' });
    expect((await store.attemptsOfOrder(b.id))[0]?.status).toBe('mined');
    await store.recordPayoutProgress({
      attempts: [{ id: 'pat_b', status: 'failed', error: 'reverted' }],
      transitions: [{ order: await current(b), patch: { status: 'FAILED', reason: 'reverted' } }],
      now: T0 + 7,
    });
    expect((await store.listBalances())[0]).toMatchObject({ available: 700n, frozen: 0n });
    expect((await store.ledgerEntriesOfOrder(a.id)).map((e) => e.kind)).toEqual([
      'payout_freeze',
      'payout_debit',
    ]);
    expect((await store.ledgerEntriesOfOrder(b.id)).map((e) => [e.kind, e.reason])).toEqual([
      ['payout_freeze', null],
      ['payout_release', 'reverted'],
    ]);
    await expectLedgerConsistent();
  });
}
