import { desc, eq, sql } from 'drizzle-orm';
import type {
  ChainRecords,
  DepositAddressRecord,
  PayoutTxRecord,
  ReconciliationRun,
  SweepTxRecord,
  TransferInRecord,
  WalletFloat,
} from '../../repositories/reconciliation.ts';
import { type PgDb, type PgExecutor, pgTransaction } from '../client.ts';
import { reconciliations, txFees, walletFloats } from '../schema/reconciliations.ts';

/**
 * What `kassa reconcile` reads from the records on PostgreSQL (the SQLite twin and the records'
 * types: ../../repositories/reconciliation.ts). Reads only; one write (recordReconciliation).
 */

/**
 * Everything recorded on `chain` that moves funds on Kassa's addresses: its collections' deposit
 * addresses, the incoming transfers the scanner stored in blocks up to `atHeight`, every payout and
 * sweep transaction (with their block, so the caller can tell what had landed by then). Read in one
 * repeatable-read snapshot, so a payout or sweep recorded meanwhile is seen whole or not at all.
 */
export async function chainRecords(
  db: PgDb,
  args: { chain: string; atHeight: number },
): Promise<ChainRecords> {
  const { chain, atHeight } = args;
  return pgTransaction(
    db,
    async (tx) => {
      const deposits = await tx.execute<DepositAddressRecord & Record<string, unknown>>(sql`
        SELECT address, order_id AS "orderId", merchant_id AS "merchantId" FROM orders
        WHERE chain = ${chain} AND type = 'COLLECTION'`);
      const transfersIn = await tx.execute<Omit<TransferInRecord, 'amountBase'> & { amountBase: string }>(sql`
        SELECT t.to_address AS address, t.symbol, t.amount_base AS "amountBase", t.txid,
               t.block_num AS "blockNum", t.status, o.order_id AS "orderId",
               t.unattributed_reason AS "unattributedReason"
        FROM chain_transfers t LEFT JOIN orders o ON o.id = t.order_ref
        WHERE t.chain = ${chain} AND t.status IN ('pending', 'final') AND t.block_num <= ${atHeight}`);
      const payouts = await tx.execute<Omit<PayoutTxRecord, 'amountBase'> & { amountBase: string }>(sql`
        SELECT o.order_id AS "orderId", a.from_address AS "fromAddress", o.symbol,
               o.amount_base AS "amountBase", a.tx_hash AS "txHash", a.status, a.block_num AS "blockNum"
        FROM payout_attempts a JOIN orders o ON o.id = a.order_ref
        WHERE a.chain = ${chain}`);
      const sweepTxs = await tx.execute<
        Omit<SweepTxRecord, 'valueBase' | 'feeBase'> & { valueBase: string; feeBase: string | null }
      >(sql`
        SELECT x.sweep_id AS "sweepId", x.role, x.from_address AS "fromAddress", x.to_address AS "toAddress",
               s.symbol, s.destination_kind AS "destinationKind", x.value_base AS "valueBase",
               x.tx_hash AS "txHash", x.status, x.block_num AS "blockNum", x.fee_base AS "feeBase",
               x.fee_payer AS "feePayer"
        FROM sweep_txs x JOIN sweeps s ON s.id = x.sweep_id
        WHERE x.chain = ${chain}`);
      return {
        deposits: deposits.rows.map((r) => ({
          address: r.address,
          orderId: r.orderId,
          merchantId: r.merchantId,
        })),
        transfersIn: transfersIn.rows.map((r) => ({ ...r, amountBase: BigInt(r.amountBase) })),
        payouts: payouts.rows.map((r) => ({ ...r, amountBase: BigInt(r.amountBase) })),
        sweepTxs: sweepTxs.rows.map((r) => ({
          ...r,
          valueBase: BigInt(r.valueBase),
          feeBase: r.feeBase === null ? null : BigInt(r.feeBase),
        })),
      };
    },
    'repeatable read',
  );
}

/** Fees read from the chain earlier for transactions whose record holds none (txHash → base units). */
export async function cachedTxFees(db: PgExecutor, chain: string): Promise<Map<string, bigint>> {
  const rows = await db
    .select({ txHash: txFees.txHash, feeBase: txFees.feeBase })
    .from(txFees)
    .where(eq(txFees.chain, chain));
  return new Map(rows.map((r) => [r.txHash, BigInt(r.feeBase)]));
}

/** The floats recorded for a chain's hot wallets. */
export async function walletFloatsOf(db: PgExecutor, chain: string): Promise<WalletFloat[]> {
  const rows = await db
    .select()
    .from(walletFloats)
    .where(eq(walletFloats.chain, chain))
    .orderBy(walletFloats.address, walletFloats.symbol);
  return rows.map((r) => ({ ...r, floatBase: BigInt(r.floatBase) }));
}

/** Rows per INSERT: far below PostgreSQL's 65,535 parameters per statement. */
const CHUNK = 1000;

/**
 * Stores a run with what it learnt, in one transaction: the run itself, the floats it accepted
 * (a hot wallet's float only grows unless the operator accepts a smaller one), and the fees of
 * final transactions it read from the chain (never read again). Kept correct by (a) upserts in one
 * read-committed transaction: a float is replaced (the last given for a wallet wins), a fee already
 * cached stays as first read (ON CONFLICT DO NOTHING), and a failure writes nothing.
 */
export async function recordReconciliation(
  db: PgDb,
  args: {
    run: ReconciliationRun;
    floats: Omit<WalletFloat, 'updatedAt'>[];
    txFees: { chain: string; txHash: string; feeBase: bigint }[];
  },
): Promise<void> {
  const { run } = args;
  // One upsert may not touch a row twice: the last float given for a wallet wins, as row by row
  // would. Rows go in key order, so two runs stored at once lock them in the same order and never
  // deadlock each other.
  const floats = new Map(args.floats.map((f) => [`${f.chain}\u0000${f.address}\u0000${f.symbol}`, f]));
  const floatRows = [...floats]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, f]) => ({
      chain: f.chain,
      address: f.address,
      symbol: f.symbol,
      floatBase: f.floatBase.toString(),
      updatedAt: run.finishedAt,
    }));
  const feeRows = args.txFees
    .map((f) => ({ chain: f.chain, txHash: f.txHash, feeBase: f.feeBase.toString() }))
    .sort((a, b) => (a.chain + '\u0000' + a.txHash < b.chain + '\u0000' + b.txHash ? -1 : 1));
  await pgTransaction(db, async (tx) => {
    await tx.insert(reconciliations).values({ ...run, chains: run.chains.join(',') });
    for (let i = 0; i < floatRows.length; i += CHUNK)
      await tx
        .insert(walletFloats)
        .values(floatRows.slice(i, i + CHUNK))
        .onConflictDoUpdate({
          target: [walletFloats.chain, walletFloats.address, walletFloats.symbol],
          set: { floatBase: sql`excluded.float_base`, updatedAt: sql`excluded.updated_at` },
        });
    for (let i = 0; i < feeRows.length; i += CHUNK)
      await tx
        .insert(txFees)
        .values(feeRows.slice(i, i + CHUNK))
        .onConflictDoNothing();
  });
}

/** The latest run (for /metrics and the dashboard), or null before the first. */
export async function lastReconciliation(db: PgExecutor): Promise<ReconciliationRun | null> {
  const [r] = await db
    .select()
    .from(reconciliations)
    // Runs are only ever inserted, so the youngest inserting transaction (the smallest age of xmin,
    // wraparound-safe) is the one stored last: SQLite's tie-break (rowid) for runs of the same ms.
    .orderBy(desc(reconciliations.finishedAt), sql`age(xmin)`)
    .limit(1);
  return r ? { ...r, chains: r.chains === '' ? [] : r.chains.split(',') } : null;
}
