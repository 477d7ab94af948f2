import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { newId } from '../../../lib/ids.ts';
import type { HoldKind, HoldResolution, PayoutHold } from '../../repositories/payout-holds.ts';
import type { PgExecutor } from '../client.ts';
import { payoutHolds } from '../schema/payout-holds.ts';

export type { HoldKind, HoldResolution, PayoutHold } from '../../repositories/payout-holds.ts';

/**
 * Puts a payout on hold inside the caller's transaction, unless it already has an open hold of that
 * kind. Returns whether a new hold was opened.
 */
// Kept correct by (a): the partial unique index payout_holds_open (one open hold per payout and
// kind) with ON CONFLICT DO NOTHING; of two concurrent holds one inserts, the other waits and finds it.
export async function openHold(
  ex: PgExecutor,
  input: { orderRef: string; kind: HoldKind; reason: string; now: number },
): Promise<boolean> {
  const rows = await ex
    .insert(payoutHolds)
    .values({
      id: newId('hld'),
      orderRef: input.orderRef,
      kind: input.kind,
      reason: input.reason,
      createdAt: input.now,
    })
    .onConflictDoNothing()
    .returning({ id: payoutHolds.id });
  return rows.length > 0;
}

/**
 * Closes a payout's open holds (of one kind, or all) inside the caller's transaction, recording how
 * and the operator's words. Returns how many were closed.
 */
// Kept correct by (a): one UPDATE guarded by `resolved_at IS NULL`; a hold closed concurrently is
// re-read after the other commits and no longer matches, so a hold is resolved once.
export async function resolveHolds(
  ex: PgExecutor,
  input: {
    orderRef: string;
    kind?: HoldKind;
    resolution: HoldResolution;
    note?: string | null;
    now: number;
  },
): Promise<number> {
  const rows = await ex
    .update(payoutHolds)
    .set({ resolvedAt: input.now, resolution: input.resolution, note: input.note ?? null })
    .where(
      and(
        eq(payoutHolds.orderRef, input.orderRef),
        isNull(payoutHolds.resolvedAt),
        input.kind === undefined ? undefined : eq(payoutHolds.kind, input.kind),
      ),
    )
    .returning({ id: payoutHolds.id });
  return rows.length;
}

/** The open holds of some payouts, by order (each order's oldest first). */
export async function openHoldsOf(ex: PgExecutor, orderRefs: string[]): Promise<Map<string, PayoutHold[]>> {
  const out = new Map<string, PayoutHold[]>();
  if (orderRefs.length === 0) return out;
  const rows = await ex
    .select()
    .from(payoutHolds)
    .where(and(inArray(payoutHolds.orderRef, orderRefs), isNull(payoutHolds.resolvedAt)))
    .orderBy(asc(payoutHolds.createdAt), asc(payoutHolds.id));
  for (const r of rows) out.set(r.orderRef, [...(out.get(r.orderRef) ?? []), r]);
  return out;
}

/**
 * Every hold a payout had, open and resolved, oldest first: the record of what it waited for and
 * what the operator decided (the payout_holds table stays small: only held payouts have rows).
 */
export async function holdHistoryOf(ex: PgExecutor, orderRef: string): Promise<PayoutHold[]> {
  return ex
    .select()
    .from(payoutHolds)
    .where(eq(payoutHolds.orderRef, orderRef))
    .orderBy(asc(payoutHolds.createdAt), asc(payoutHolds.id));
}
