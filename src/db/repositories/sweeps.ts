import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { AppError } from '../../domain/errors.ts';
import { newId } from '../../lib/ids.ts';
import { type Db, writeTransaction } from '../client.ts';
import { operatorCosts } from '../schema/operator-costs.ts';
import { sweepTxs } from '../schema/sweep-txs.ts';
import { sweeps } from '../schema/sweeps.ts';

export type Sweep = typeof sweeps.$inferSelect;
export type SweepStatus = Sweep['status'];
export type SweepTx = typeof sweepTxs.$inferSelect;
export type SweepTxStatus = SweepTx['status'];
export type NewSweep = Omit<Sweep, 'error' | 'held' | 'tries' | 'nextTryAt' | 'updatedAt' | 'finalAt'>;
export type NewSweepTx = Omit<
  SweepTx,
  'blockNum' | 'feeBase' | 'feePayer' | 'error' | 'createdAt' | 'updatedAt'
>;
export type OperatorCostKind = (typeof operatorCosts.$inferSelect)['kind'];

/** Sweep states in which a sweep is still being worked on. */
export const OPEN_SWEEP_STATUSES: readonly SweepStatus[] = [
  'planned',
  'gas_sent',
  'gas_final',
  'signed',
  'broadcast',
];
/** Stores a new sweep in `planned`. Throws state_conflict when the address already has an open sweep of the token. */
export async function insertSweep(db: Db, sweep: NewSweep): Promise<Sweep> {
  const row = plannedSweepRow(sweep);
  try {
    db.insert(sweeps).values(row).run();
  } catch (error) {
    if (String((error as Error).message).includes('UNIQUE'))
      throw new AppError('state_conflict', `${sweep.address} already has an open ${sweep.symbol} sweep.`);
    throw error;
  }
  return row;
}

/** A change to a sweep, applied only if it is still in `from` (zero rows is a conflict). */
export interface SweepStep {
  id: string;
  from: SweepStatus;
  to: SweepStatus;
  amountBase?: string;
  error?: string | null;
  held?: boolean;
  tries?: number;
  nextTryAt?: number;
}

/** What the chain said about one sweep transaction. */
export interface SweepTxUpdate {
  id: string;
  status: SweepTxStatus;
  blockNum?: number | null;
  feeBase?: string | null;
  feePayer?: string | null;
  error?: string | null;
}

/** One cost the operator paid, written once per (chain, transaction, kind). */
export interface NewOperatorCost {
  chain: string;
  kind: OperatorCostKind;
  symbol: string;
  decimals: number;
  amountBase: string;
  sweepId: string;
  txHash: string;
}

/** A new sweep's row, as both engines store it: untried, not held, no error yet. */
export function plannedSweepRow(sweep: NewSweep): Sweep {
  return {
    ...sweep,
    error: null,
    held: false,
    tries: 0,
    nextTryAt: 0,
    updatedAt: sweep.createdAt,
    finalAt: null,
  };
}

/** The columns a step sets on its sweep (those it gives, its time, and the time it went final). */
export function sweepStepColumns(step: SweepStep, now: number): Partial<Sweep> {
  return {
    status: step.to,
    updatedAt: now,
    ...(step.amountBase !== undefined ? { amountBase: step.amountBase } : {}),
    ...(step.error !== undefined ? { error: step.error } : {}),
    ...(step.held !== undefined ? { held: step.held } : {}),
    ...(step.tries !== undefined ? { tries: step.tries } : {}),
    ...(step.nextTryAt !== undefined ? { nextTryAt: step.nextTryAt } : {}),
    ...(step.to === 'final' ? { finalAt: now } : {}),
  };
}

/** A new sweep transaction's row: signed, not seen by the chain yet. */
export function newSweepTxRow(tx: NewSweepTx, now: number): SweepTx {
  return {
    ...tx,
    blockNum: null,
    feeBase: null,
    feePayer: null,
    error: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** The columns what the chain said sets on a sweep transaction (those it gives, and its time). */
export function sweepTxColumns(t: SweepTxUpdate, now: number): Partial<SweepTx> {
  return {
    status: t.status,
    updatedAt: now,
    ...(t.blockNum !== undefined ? { blockNum: t.blockNum } : {}),
    ...(t.feeBase !== undefined ? { feeBase: t.feeBase } : {}),
    ...(t.feePayer !== undefined ? { feePayer: t.feePayer } : {}),
    ...(t.error !== undefined ? { error: t.error } : {}),
  };
}

/**
 * Records one step of a sweep atomically: new signed transactions (stored before they are
 * broadcast), what the chain said about earlier ones, the costs paid, and the sweep's move from
 * `from` to `to`. Throws state_conflict (nothing written) when the sweep is no longer in `from`
 * (another process moved it), or when a new transaction reuses a recorded nonce of its sender.
 */
export async function recordSweepStep(
  db: Db,
  input: {
    step?: SweepStep;
    newTxs?: NewSweepTx[];
    txs?: SweepTxUpdate[];
    costs?: NewOperatorCost[];
    now: number;
  },
): Promise<void> {
  writeTransaction(db, () => {
    const { step, now } = input;
    if (step) {
      const res = db
        .update(sweeps)
        .set(sweepStepColumns(step, now))
        .where(and(eq(sweeps.id, step.id), eq(sweeps.status, step.from)))
        .run();
      if (res.changes === 0)
        throw new AppError('state_conflict', `Sweep ${step.id} is no longer ${step.from}.`);
    }
    for (const tx of input.newTxs ?? []) {
      try {
        db.insert(sweepTxs).values(newSweepTxRow(tx, now)).run();
      } catch (error) {
        if (String((error as Error).message).includes('UNIQUE'))
          throw new AppError(
            'state_conflict',
            `Transaction ${tx.txHash} reuses a recorded transaction or nonce.`,
          );
        throw error;
      }
    }
    for (const t of input.txs ?? []) {
      db.update(sweepTxs).set(sweepTxColumns(t, now)).where(eq(sweepTxs.id, t.id)).run();
    }
    for (const c of input.costs ?? [])
      db.insert(operatorCosts)
        .values({ ...c, id: newId('cst'), createdAt: now })
        .onConflictDoNothing()
        .run();
  });
}

/** The open sweeps of a chain, oldest first. */
export async function openSweeps(db: Db, chain: string): Promise<Sweep[]> {
  return db
    .select()
    .from(sweeps)
    .where(and(eq(sweeps.chain, chain), inArray(sweeps.status, [...OPEN_SWEEP_STATUSES])))
    .orderBy(sweeps.createdAt)
    .all();
}

/** A sweep by id. */
export async function findSweep(db: Db, id: string): Promise<Sweep | null> {
  return db.select().from(sweeps).where(eq(sweeps.id, id)).get() ?? null;
}

/** The transactions of a sweep, in the order they were signed. */
export async function sweepTxsOf(db: Db, sweepId: string): Promise<SweepTx[]> {
  return db.select().from(sweepTxs).where(eq(sweepTxs.sweepId, sweepId)).orderBy(sweepTxs.createdAt).all();
}

/**
 * Sweep transactions recorded from an address that may share a spend slot with a transaction of
 * it: on EVM those at the same nonce, elsewhere the most recent ones.
 */
export async function sweepSpendsFrom(
  db: Db,
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
        input.except === undefined ? undefined : sql`${sweepTxs.id} <> ${input.except}`,
      ),
    )
    .orderBy(desc(sweepTxs.createdAt))
    .limit(input.limit ?? 200)
    .all();
}

/** Sweeps, newest first, optionally of one status and chain. */
export async function listSweeps(
  db: Db,
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
    .orderBy(desc(sweeps.createdAt))
    .limit(input.limit ?? 1000)
    .all();
}

/** Per chain and symbol: sweeps by status, and what final sweeps moved in all (base units, summed in TypeScript). */
export async function sweepTotals(
  db: Db,
): Promise<
  { chain: string; symbol: string; decimals: number; counts: Map<SweepStatus, number>; sweptBase: bigint }[]
> {
  const out = new Map<
    string,
    { chain: string; symbol: string; decimals: number; counts: Map<SweepStatus, number>; sweptBase: bigint }
  >();
  const rows = db
    .select({
      chain: sweeps.chain,
      symbol: sweeps.symbol,
      decimals: sweeps.decimals,
      status: sweeps.status,
      amountBase: sweeps.amountBase,
    })
    .from(sweeps)
    .all();
  for (const r of rows) {
    const key = `${r.chain}/${r.symbol}`;
    const e = out.get(key) ?? {
      chain: r.chain,
      symbol: r.symbol,
      decimals: r.decimals,
      counts: new Map(),
      sweptBase: 0n,
    };
    e.counts.set(r.status, (e.counts.get(r.status) ?? 0) + 1);
    if (r.status === 'final') e.sweptBase += BigInt(r.amountBase);
    out.set(key, e);
  }
  return [...out.values()];
}
