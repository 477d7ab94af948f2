import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { newId } from '../../lib/ids.ts';
import type { Db } from '../client.ts';
import { payoutHolds } from '../schema/payout-holds.ts';

export type HoldKind = 'approval' | 'stuck';
export type HoldResolution = 'approved' | 'rejected' | 'retried' | 'failed' | 'landed' | 'final';

/** An operator decision a payout waits for. */
export interface PayoutHold {
  id: string;
  orderRef: string;
  kind: HoldKind;
  reason: string;
  createdAt: number;
  resolvedAt: number | null;
  resolution: string | null;
  note: string | null;
}

/**
 * Puts a payout on hold inside the caller's transaction, unless it already has an open hold of that
 * kind. Returns whether a new hold was opened.
 */
export function openHold(
  db: Db,
  input: { orderRef: string; kind: HoldKind; reason: string; now: number },
): boolean {
  const r = db
    .insert(payoutHolds)
    .values({
      id: newId('hld'),
      orderRef: input.orderRef,
      kind: input.kind,
      reason: input.reason,
      createdAt: input.now,
    })
    .onConflictDoNothing()
    .run();
  return r.changes > 0;
}

/**
 * Closes a payout's open holds (of one kind, or all) inside the caller's transaction, recording how
 * and the operator's words. Returns how many were closed.
 */
export function resolveHolds(
  db: Db,
  input: {
    orderRef: string;
    kind?: HoldKind;
    resolution: HoldResolution;
    note?: string | null;
    now: number;
  },
): number {
  const r = db
    .update(payoutHolds)
    .set({ resolvedAt: input.now, resolution: input.resolution, note: input.note ?? null })
    .where(
      and(
        eq(payoutHolds.orderRef, input.orderRef),
        isNull(payoutHolds.resolvedAt),
        input.kind === undefined ? undefined : eq(payoutHolds.kind, input.kind),
      ),
    )
    .run();
  return r.changes;
}

/** The open holds of some payouts, by order. */
export function openHoldsOf(db: Db, orderRefs: string[]): Map<string, PayoutHold[]> {
  const out = new Map<string, PayoutHold[]>();
  if (orderRefs.length === 0) return out;
  const rows = db
    .select()
    .from(payoutHolds)
    .where(and(inArray(payoutHolds.orderRef, orderRefs), isNull(payoutHolds.resolvedAt)))
    .all();
  for (const r of rows) out.set(r.orderRef, [...(out.get(r.orderRef) ?? []), r]);
  return out;
}

/**
 * Every hold a payout had, open and resolved, oldest first: the record of what it waited for and
 * what the operator decided (the payout_holds table stays small: only held payouts have rows).
 */
export async function holdHistoryOf(db: Db, orderRef: string): Promise<PayoutHold[]> {
  return db
    .select()
    .from(payoutHolds)
    .where(eq(payoutHolds.orderRef, orderRef))
    .orderBy(asc(payoutHolds.createdAt))
    .all();
}
