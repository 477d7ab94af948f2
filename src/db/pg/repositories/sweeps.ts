import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { AppError } from '../../../domain/errors.ts';
import { newId } from '../../../lib/ids.ts';
import type * as sqlite from '../../repositories/sweeps.ts';
import {
  type NewOperatorCost,
  type NewSweep,
  type NewSweepTx,
  newSweepTxRow,
  OPEN_SWEEP_STATUSES,
  plannedSweepRow,
  type Sweep,
  type SweepStatus,
  type SweepStep,
  type SweepTx,
  type SweepTxUpdate,
  sweepStepColumns,
  sweepTxColumns,
} from '../../repositories/sweeps.ts';
import { isUniqueViolation, type PgDb, type PgExecutor, pgTransaction } from '../client.ts';
import { operatorCosts } from '../schema/operator-costs.ts';
import { sweepTxs } from '../schema/sweep-txs.ts';
import { sweeps } from '../schema/sweeps.ts';

/**
 * Stores a new sweep in `planned`. Throws state_conflict when the address already has an open sweep
 * of the token. Kept correct by (a) one INSERT against the partial unique index `sweeps_open`: a
 * concurrent duplicate waits for the first to commit and then hits the index.
 */
export async function insertSweep(db: PgExecutor, sweep: NewSweep): Promise<Sweep> {
  const row = plannedSweepRow(sweep);
  try {
    await db.insert(sweeps).values(row);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('state_conflict', `${sweep.address} already has an open ${sweep.symbol} sweep.`);
    throw error;
  }
  return row;
}

/**
 * Records one step of a sweep atomically: new signed transactions (stored before they are
 * broadcast), what the chain said about earlier ones, the costs paid, and the sweep's move from
 * `from` to `to`. Throws state_conflict (nothing written) when the sweep is no longer in `from`
 * (another process moved it), or when a new transaction reuses a recorded nonce of its sender.
 * Kept correct by (a) in one transaction: `UPDATE … WHERE status = from RETURNING` (a concurrent
 * step waits on the row lock and then finds the status changed), and the unique indexes
 * `sweep_txs_nonce`, `sweep_txs_tx` and `operator_costs_tx` for the rows it adds.
 */
export async function recordSweepStep(
  db: PgDb,
  input: {
    step?: SweepStep;
    newTxs?: NewSweepTx[];
    txs?: SweepTxUpdate[];
    costs?: NewOperatorCost[];
    now: number;
  },
): Promise<void> {
  await pgTransaction(db, async (tx) => {
    const { step, now } = input;
    if (step) {
      const moved = await tx
        .update(sweeps)
        .set(sweepStepColumns(step, now))
        .where(and(eq(sweeps.id, step.id), eq(sweeps.status, step.from)))
        .returning({ id: sweeps.id });
      if (moved.length === 0)
        throw new AppError('state_conflict', `Sweep ${step.id} is no longer ${step.from}.`);
    }
    for (const t of input.newTxs ?? []) {
      try {
        await tx.insert(sweepTxs).values(newSweepTxRow(t, now));
      } catch (error) {
        if (isUniqueViolation(error))
          throw new AppError(
            'state_conflict',
            `Transaction ${t.txHash} reuses a recorded transaction or nonce.`,
          );
        throw error;
      }
    }
    for (const t of input.txs ?? [])
      await tx.update(sweepTxs).set(sweepTxColumns(t, now)).where(eq(sweepTxs.id, t.id));
    const costs = input.costs ?? [];
    if (costs.length > 0)
      await tx
        .insert(operatorCosts)
        .values(costs.map((c) => ({ ...c, id: newId('cst'), createdAt: now })))
        .onConflictDoNothing();
  });
}

/** The open sweeps of a chain, oldest first (ties by id: PostgreSQL has no insertion order). */
export async function openSweeps(db: PgExecutor, chain: string): Promise<Sweep[]> {
  return db
    .select()
    .from(sweeps)
    .where(and(eq(sweeps.chain, chain), inArray(sweeps.status, [...OPEN_SWEEP_STATUSES])))
    .orderBy(sweeps.createdAt, sweeps.id);
}

/** A sweep by id. */
export async function findSweep(db: PgExecutor, id: string): Promise<Sweep | null> {
  const [row] = await db.select().from(sweeps).where(eq(sweeps.id, id));
  return row ?? null;
}

/**
 * The order a sweep signs its transactions in, for those stored in the same millisecond (SQLite
 * keeps them in insertion order; PostgreSQL has none): by role (top-up or energy lent, then the
 * transfer, then energy taken back), then one proven dead (dropped, failed) before the one that
 * replaced it (a replacement is signed only once the one before is dead), then by id.
 */
const ROLE_RANK = sql`case ${sweepTxs.role} when 'topup' then 0 when 'delegate' then 1 when 'transfer' then 2 else 3 end`;
const LIVE_RANK = sql`case when ${sweepTxs.status} in ('dropped', 'failed') then 0 else 1 end`;
const signedFirst = [sweepTxs.createdAt, ROLE_RANK, LIVE_RANK, sweepTxs.id];

/** The transactions of a sweep, in the order they were signed. */
export async function sweepTxsOf(db: PgExecutor, sweepId: string): Promise<SweepTx[]> {
  return db
    .select()
    .from(sweepTxs)
    .where(eq(sweepTxs.sweepId, sweepId))
    .orderBy(...signedFirst);
}

/**
 * Sweep transactions recorded from an address that may share a spend slot with a transaction of
 * it: on EVM those at the same nonce, elsewhere the most recent ones.
 */
export async function sweepSpendsFrom(
  db: PgExecutor,
  input: { chain: string; from: string; nonce: number | null; except?: string; limit?: number },
): Promise<SweepTx[]> {
  return db
    .select()
    .from(sweepTxs)
    .where(
      and(
        eq(sweepTxs.chain, input.chain),
        eq(sweepTxs.fromAddress, input.from),
        input.nonce === null ? undefined : eq(sweepTxs.nonce, input.nonce),
        input.except === undefined ? undefined : ne(sweepTxs.id, input.except),
      ),
    )
    .orderBy(...signedFirst.map((key) => desc(key)))
    .limit(input.limit ?? 200);
}

/** Sweeps, newest first, optionally of one status and chain. */
export async function listSweeps(
  db: PgExecutor,
  input: { status?: SweepStatus; chain?: string; limit?: number } = {},
): Promise<Sweep[]> {
  return db
    .select()
    .from(sweeps)
    .where(
      and(
        input.status ? eq(sweeps.status, input.status) : undefined,
        input.chain ? eq(sweeps.chain, input.chain) : undefined,
      ),
    )
    .orderBy(desc(sweeps.createdAt), desc(sweeps.id))
    .limit(input.limit ?? 1000);
}

/**
 * Per chain and symbol: sweeps by status, and what final sweeps moved in all (base units, summed
 * exactly as numeric by PostgreSQL: amounts are TEXT and never pass through a float).
 */
export async function sweepTotals(db: PgExecutor): ReturnType<typeof sqlite.sweepTotals> {
  const rows = await db
    .select({
      chain: sweeps.chain,
      symbol: sweeps.symbol,
      decimals: sql<number>`min(${sweeps.decimals})`.mapWith(Number),
      status: sweeps.status,
      count: sql<number>`count(*)`.mapWith(Number),
      amountBase: sql<string>`sum(${sweeps.amountBase}::numeric)::text`,
    })
    .from(sweeps)
    .groupBy(sweeps.chain, sweeps.symbol, sweeps.status)
    .orderBy(sweeps.chain, sweeps.symbol, sweeps.status);
  const out = new Map<string, Awaited<ReturnType<typeof sqlite.sweepTotals>>[number]>();
  for (const r of rows) {
    const key = `${r.chain}/${r.symbol}`;
    const e = out.get(key) ?? {
      chain: r.chain,
      symbol: r.symbol,
      decimals: r.decimals,
      counts: new Map(),
      sweptBase: 0n,
    };
    e.counts.set(r.status, r.count);
    if (r.status === 'final') e.sweptBase = BigInt(r.amountBase);
    out.set(key, e);
  }
  return [...out.values()];
}
