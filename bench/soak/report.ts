import type { SoakBusiness } from './business.ts';
import type { SoakDatabase } from './database.ts';
import { expectedStatus } from './drain.ts';
import type { Kills } from './killer.ts';
import type { SoakReceiver } from './receiver.ts';

/** The p50, p95 and max of some waits (ms), in seconds with one decimal. */
function spread(waits: number[]): { n: number; p50: number; p95: number; max: number } {
  const sorted = [...waits].sort((a, b) => a - b);
  const at = (q: number) =>
    Number(((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) / 1000).toFixed(1));
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), max: at(1) };
}

/**
 * How long a merchant waits: from the last payment sent (or the payout asked) to the first
 * ORDER_SUCCESS webhook.
 */
function waits(business: SoakBusiness, receiver: SoakReceiver) {
  const successArrival = new Map<string, number>();
  for (const a of receiver.arrivals)
    if (a.notifyType === 'ORDER_SUCCESS' && !successArrival.has(a.orderId))
      successArrival.set(a.orderId, a.at);
  const paymentWaits: number[] = [];
  for (const c of business.collections) {
    const inTime = c.paid.filter((p) => !p.afterExpiry);
    const arrived = successArrival.get(c.orderId);
    if (!c.uncertain && expectedStatus(c) === 'SUCCESS' && inTime.length > 0 && arrived !== undefined)
      paymentWaits.push(arrived - Math.max(...inTime.map((p) => p.at)));
  }
  const payoutWaits: number[] = [];
  for (const p of business.payouts) {
    const arrived = successArrival.get(p.orderId);
    if (p.askedAt !== undefined && arrived !== undefined) payoutWaits.push(arrived - p.askedAt);
  }
  return { collections: spread(paymentWaits), payouts: spread(payoutWaits) };
}

/** The soak's figures, printed as JSON: what ran, what happened, and every broken invariant. */
export function soakFigures(input: {
  minutes: number;
  seed: number;
  started: number;
  businessEnded: number;
  drainedAt: number;
  load: { start: number[]; end: number[] };
  db: SoakDatabase;
  business: SoakBusiness;
  receiver: SoakReceiver;
  kills: Kills;
  byPlan: Record<string, number>;
  payoutsRefused: number;
  webhooks: { acked: Map<string, number>; outOfOrder: number };
  problems: string[];
}) {
  const { business, receiver, db, problems } = input;
  const { collections, payouts } = business;
  const statusCount = (type: string) =>
    Object.fromEntries(
      db
        .q<{ status: string; n: number }>(
          'SELECT status, count(*) AS n FROM orders WHERE type = ? GROUP BY status',
          type,
        )
        .map((r) => [r.status, r.n]),
    );
  return {
    command: `npx tsx bench/soak.ts --minutes ${input.minutes} --seed ${input.seed}`,
    date: new Date(input.started).toISOString(),
    minutesOfBusiness: Number(((input.businessEnded - input.started) / 60_000).toFixed(1)),
    drainSeconds: Math.round((input.drainedAt - input.businessEnded) / 1000),
    loadAverage: {
      start: input.load.start.map((x) => Number(x.toFixed(2))),
      end: input.load.end.map((x) => Number(x.toFixed(2))),
    },
    collections: { created: collections.length, byPlan: input.byPlan, statuses: statusCount('COLLECTION') },
    payments: collections.reduce((s, c) => s + c.paid.length, 0),
    paymentErrors: business.paymentErrors,
    collectionsWithAFailedPayment: collections.filter((c) => c.uncertain).length,
    payouts: { asked: payouts.length, refused: input.payoutsRefused, statuses: statusCount('PAYOUT') },
    kills: input.kills,
    secondsToSuccessWebhook: waits(business, receiver),
    webhooks: {
      events: db.q<{ n: number }>('SELECT count(*) AS n FROM webhook_events')[0]?.n,
      requestsReceived: receiver.counts.received,
      answered500: receiver.counts.failed500,
      leftHanging: receiver.counts.hung,
      connectionsDropped: receiver.counts.dropped,
      duplicates: receiver.arrivals.filter((a) => a.answered === 200).length - input.webhooks.acked.size,
      outOfOrder: input.webhooks.outOfOrder,
    },
    invariantsHeld: problems.length === 0,
    problems,
  };
}
