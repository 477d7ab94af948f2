import { describe, expect, it } from 'vitest';
import { store, T0 } from './context.ts';
import { attempt, webhookEvent } from './webhooks-claims.contract.ts';

const LEASE = T0 + 3_600_000;
const ids = (events: { id: string }[]) => events.map((e) => e.id);

/** Claimers of the same outbox at once (a worker taking over while the old one still runs): no event goes to two (../store/webhooks.ts). */
export function webhooksRacesContract(): void {
  describe('concurrent deliverers', () => {
    it('gives two claimers at once disjoint sets of due events that together are all of them', async () => {
      for (let round = 0; round < 3; round++) {
        const now = T0 + round * 10_000;
        const due: string[] = [];
        for (let i = 0; i < 30; i++) {
          const order = `ord_${round}_${i}`;
          due.push(
            (
              await webhookEvent(`evt_${round}_${i}_v1`, {
                orderRef: order,
                nextAttemptAt: now,
                createdAt: now,
              })
            ).id,
          );
          await webhookEvent(`evt_${round}_${i}_v2`, {
            orderRef: order,
            orderVersion: 2,
            nextAttemptAt: now,
          });
        }
        const claim = { now, limit: 20, scan: 40, leaseUntil: LEASE };
        const [a, b] = await Promise.all([
          store.claimDueWebhookEvents(claim),
          store.claimDueWebhookEvents(claim),
        ]);
        const both = [...ids(a!), ...ids(b!)];
        expect(new Set(both).size).toBe(both.length); // disjoint
        expect(both.sort()).toEqual(due.sort()); // every head, no event waiting behind one
      }
    });

    it('hands an order’s next event to one deliverer when its head is settled while another claims', async () => {
      const heads: string[] = [];
      for (let i = 0; i < 10; i++) {
        heads.push((await webhookEvent(`evt_${i}_v1`, { orderRef: `ord_${i}` })).id);
        await webhookEvent(`evt_${i}_v2`, { orderRef: `ord_${i}`, orderVersion: 2 });
      }
      expect((await store.claimDueWebhookEvents({ now: T0, limit: 10, leaseUntil: T0 + 1 })).length).toBe(10);
      const claim = { now: T0 + 1, limit: 10, leaseUntil: LEASE };
      const [settling, other] = await Promise.all([
        store.settleAndClaimWebhookEvents({
          settle: heads.map((id) => ({
            attempt: attempt(id, 200),
            outcome: { status: 'delivered' as const },
            now: T0 + 1,
          })),
          claim,
        }),
        store.claimDueWebhookEvents({ ...claim, now: T0 }), // the heads' leases are still running at T0
      ]);
      expect(settling.settled).toEqual(heads.map(() => true));
      const both = [...ids(settling.claimed), ...ids(other)];
      expect(new Set(both).size).toBe(both.length);
      expect(both.sort()).toEqual(heads.map((id) => id.replace('_v1', '_v2')).sort());
    });

    it('lets one of 10 concurrent settlements of each event settle it, keeping every attempt', async () => {
      const events = ['evt_0', 'evt_1', 'evt_2', 'evt_3', 'evt_4'];
      for (const [i, id] of events.entries()) await webhookEvent(id, { orderRef: `ord_${i}` });
      const settle = (id: string, i: number) =>
        store.recordWebhookAttempt({
          attempt: attempt(id, 200, T0 + i),
          outcome: { status: 'delivered' },
          now: T0 + i,
        });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => Promise.all(events.map((id) => settle(id, i)))),
      );
      for (const [e, id] of events.entries()) {
        expect(results.filter((r) => r[e]).length).toBe(1);
        expect(await store.findWebhookEvent(id)).toMatchObject({ status: 'delivered', attempts: 1 });
        expect(await store.listWebhookAttempts(id)).toHaveLength(10);
      }
    });
  });
}
