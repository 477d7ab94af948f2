import { sleep } from '../../src/lib/backoff.ts';
import type { Collection, SoakBusiness } from './business.ts';
import type { SoakDatabase } from './database.ts';

/**
 * What the order must end as: SUCCESS when what was paid before it expired covers it, EXPIRED when
 * not; either, for an order whose payment failed on the customer's side (it may have gone out).
 */
export function expectedStatus(c: Collection, status?: unknown): 'SUCCESS' | 'EXPIRED' {
  if (c.uncertain && (status === 'SUCCESS' || status === 'EXPIRED')) return status;
  const paidInTime = c.paid.filter((p) => !p.afterExpiry).reduce((s, p) => s + p.amount, 0n);
  return paidInTime >= c.amountBase ? 'SUCCESS' : 'EXPIRED';
}

/**
 * How much is not yet where it must end: orders not in their final state, webhook events pending,
 * payments not yet read from their chain (late ones included).
 */
function outstanding(db: SoakDatabase, business: SoakBusiness): number {
  const { q, orderRow } = db;
  let open = 0;
  for (const c of business.collections) {
    if (c.error) continue;
    const row = orderRow(c.m, c.orderId);
    if (row?.status !== expectedStatus(c, row?.status)) open++;
  }
  for (const p of business.payouts) {
    if (p.refused) continue;
    const row = orderRow(p.m, p.orderId);
    if (row?.status !== 'SUCCESS' && row?.status !== 'FAILED') open++;
  }
  open += q<{ n: number }>("SELECT count(*) AS n FROM webhook_events WHERE status = 'pending'")[0]?.n ?? 0;
  // every payment made, late ones included, must have been read from its chain
  const recorded = new Set(q<{ txid: string }>('SELECT txid FROM chain_transfers').map((r) => r.txid));
  for (const c of business.collections) for (const p of c.paid) if (!recorded.has(p.txid)) open++;
  return open;
}

/** Waits (up to 10 minutes) until every order is where it must end; the checks then say what is not. */
export async function drain(db: SoakDatabase, business: SoakBusiness): Promise<void> {
  const drainEnd = Date.now() + 10 * 60_000;
  let open = outstanding(db, business);
  while (open > 0 && Date.now() < drainEnd) {
    await sleep(2_000);
    open = outstanding(db, business);
  }
}
