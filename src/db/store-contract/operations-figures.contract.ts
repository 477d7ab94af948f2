import { describe, expect, it } from 'vitest';
import type { NewOrder } from '../store.ts';
import { collection, create, derive, store, T0 } from './context.ts';
import { attempt, webhookEvent } from './webhooks-claims.contract.ts';

const byKey = <T>(rows: T[]) => rows.map((r) => JSON.stringify(r)).sort();

/** Creates a payout of mch_a on `chain` at `now` (no deposit address: it is sent from the hot wallet). */
const payout = (orderId: string, chain: NewOrder['chain'], now: number) =>
  store.createOrder({
    order: collection('mch_a', orderId, {
      type: 'PAYOUT',
      chain,
      address: '0xhot',
      receiveAddress: '0xpayee',
    }),
    family: null,
    derive,
    now,
  });

/** The figures readiness and metrics read (../store/operations.ts): checkpoints, counts, the oldest waiting. */
export function operationsFiguresContract(): void {
  describe('figures', () => {
    it('reads every chain’s checkpoint with its write time, and its reorganisations', async () => {
      expect(await store.cursorTimes()).toEqual([]);
      expect(await store.reorgStats()).toEqual([]);
      const cursor = { height: 100, heightHash: '0xblock100', heightTime: T0 / 1000, finalHeight: 90 };
      const scan = { chain: 'ETH', transfers: [], statusChanges: [], transitions: [], cursor };
      await store.recordScan({ ...scan, now: T0 });
      expect(await store.cursorTimes()).toEqual([
        { chain: 'ETH', height: 100, heightTime: T0 / 1000, finalHeight: 90, updatedAt: T0 },
      ]);
      expect(await store.reorgStats()).toEqual([{ chain: 'ETH', count: 0, lastDepth: null, lastAt: null }]);
      await store.recordScan({ ...scan, reorg: { depth: 3 }, now: T0 + 5 });
      await store.recordScan({ ...scan, reorg: { depth: 1 }, now: T0 + 9 });
      expect(await store.reorgStats()).toEqual([{ chain: 'ETH', count: 2, lastDepth: 1, lastAt: T0 + 9 }]);
    });

    it('counts orders by chain, type and status, and finds the oldest payout waiting per chain', async () => {
      expect(await store.orderCounts()).toEqual([]);
      expect(await store.oldestQueuedPayouts()).toEqual([]);
      await create('A-1');
      const { order } = await create('A-2');
      await store.applyOrderTransitions([{ order, patch: { status: 'EXPIRED' } }], T0);
      await payout('P-1', 'ETH', T0 + 10);
      await payout('P-2', 'ETH', T0 + 5);
      await payout('P-3', 'TRON', T0 + 7);
      expect(byKey(await store.orderCounts())).toEqual(
        byKey([
          { chain: 'ETH', type: 'COLLECTION', status: 'INIT', n: 1 },
          { chain: 'ETH', type: 'COLLECTION', status: 'EXPIRED', n: 1 },
          { chain: 'ETH', type: 'PAYOUT', status: 'INIT', n: 2 },
          { chain: 'TRON', type: 'PAYOUT', status: 'INIT', n: 1 },
        ]),
      );
      expect(byKey(await store.oldestQueuedPayouts())).toEqual(
        byKey([
          { chain: 'ETH', createdAt: T0 + 5 },
          { chain: 'TRON', createdAt: T0 + 7 },
        ]),
      );
    });

    it('counts webhook events by status with the oldest pending, and attempts since a row', async () => {
      expect(await store.webhookEventCounts()).toEqual({ byStatus: [], oldestPendingAt: null });
      expect(await store.webhookAttemptsSince(0)).toEqual({ attempts: 0, delivered: 0, lastId: 0 });
      await webhookEvent('evt_a', { createdAt: T0 + 3 });
      await webhookEvent('evt_b', { orderRef: 'ord_2', createdAt: T0 + 1 });
      await webhookEvent('evt_c', { orderRef: 'ord_3', createdAt: T0, status: 'delivered' });
      await webhookEvent('evt_d', { orderRef: 'ord_4', createdAt: T0 - 5, status: 'failed' });
      expect(await store.webhookEventCounts()).toEqual({
        byStatus: expect.arrayContaining([
          { status: 'pending', n: 2 },
          { status: 'delivered', n: 1 },
          { status: 'failed', n: 1 },
        ]),
        oldestPendingAt: T0 + 1,
      });
      const retry = { status: 'pending' as const, nextAttemptAt: T0 + 1000 };
      for (const code of [200, 500, null, 204])
        await store.recordWebhookAttempt({ attempt: attempt('evt_a', code), outcome: retry, now: T0 });
      const first = await store.webhookAttemptsSince(0);
      expect(first).toMatchObject({ attempts: 4, delivered: 2 });
      expect(await store.webhookAttemptsSince(first.lastId)).toEqual({
        attempts: 0,
        delivered: 0,
        lastId: first.lastId,
      });
      await store.recordWebhookAttempt({ attempt: attempt('evt_b', 299), outcome: retry, now: T0 });
      const next = await store.webhookAttemptsSince(first.lastId);
      expect(next).toMatchObject({ attempts: 1, delivered: 1 });
      expect(next.lastId).toBeGreaterThan(first.lastId);
    });
  });
}
