import { type Db, writeTransaction } from '../client.ts';
import { prepared } from '../prepared.ts';

/**
 * What `kassa reconcile` reads from the records: every movement of funds Kassa knows of on one
 * chain (deposits seen, payouts sent, sweep transactions), the fees cached for them, the hot
 * wallets' floats, and the run's record. Reads only; one write (recordReconciliation).
 */

/** A deposit address of an order on the chain (collections only). */
export interface DepositAddressRecord {
  address: string;
  orderId: string;
  merchantId: string;
}

/** An incoming transfer the scanner recorded (pending or final, never orphaned or failed). */
export interface TransferInRecord {
  address: string;
  symbol: string;
  amountBase: bigint;
  txid: string;
  blockNum: number;
  status: 'pending' | 'final';
  /** The merchant's orderId it was credited to; null when unattributed. */
  orderId: string | null;
  unattributedReason: string | null;
}

/** One payout transaction Kassa signed from a hot wallet. */
export interface PayoutTxRecord {
  orderId: string;
  fromAddress: string;
  symbol: string;
  amountBase: bigint;
  txHash: string;
  status: 'signed' | 'broadcast' | 'mined' | 'final' | 'failed' | 'dropped' | 'replaced';
  blockNum: number | null;
}

/** One transaction of a sweep (top-up, energy lent or taken back, transfer). */
export interface SweepTxRecord {
  sweepId: string;
  role: 'topup' | 'delegate' | 'transfer' | 'undelegate';
  fromAddress: string;
  toAddress: string;
  /** The swept token (a top-up moves the native coin, whatever the sweep's token). */
  symbol: string;
  destinationKind: 'hot' | 'treasury';
  valueBase: bigint;
  txHash: string;
  status: 'signed' | 'broadcast' | 'mined' | 'final' | 'failed' | 'dropped';
  blockNum: number | null;
  feeBase: bigint | null;
  feePayer: string | null;
}

/** Everything Kassa recorded on one chain that moves funds on its addresses. */
export interface ChainRecords {
  deposits: DepositAddressRecord[];
  transfersIn: TransferInRecord[];
  payouts: PayoutTxRecord[];
  sweepTxs: SweepTxRecord[];
}

const selectDeposits = (db: Db) =>
  prepared(db, 'reconcile.deposits', () =>
    db.$client.prepare<{ chain: string }, DepositAddressRecord>(
      `SELECT address, order_id AS orderId, merchant_id AS merchantId FROM orders
       WHERE chain = @chain AND type = 'COLLECTION'`,
    ),
  );

const selectTransfersIn = (db: Db) =>
  prepared(db, 'reconcile.transfersIn', () =>
    db.$client.prepare<
      { chain: string; atHeight: number },
      Omit<TransferInRecord, 'amountBase'> & { amountBase: string }
    >(
      `SELECT t.to_address AS address, t.symbol, t.amount_base AS amountBase, t.txid, t.block_num AS blockNum,
              t.status, o.order_id AS orderId, t.unattributed_reason AS unattributedReason
       FROM chain_transfers t LEFT JOIN orders o ON o.id = t.order_ref
       WHERE t.chain = @chain AND t.status IN ('pending', 'final') AND t.block_num <= @atHeight`,
    ),
  );

const selectPayouts = (db: Db) =>
  prepared(db, 'reconcile.payouts', () =>
    db.$client.prepare<{ chain: string }, Omit<PayoutTxRecord, 'amountBase'> & { amountBase: string }>(
      `SELECT o.order_id AS orderId, a.from_address AS fromAddress, o.symbol, o.amount_base AS amountBase,
              a.tx_hash AS txHash, a.status, a.block_num AS blockNum
       FROM payout_attempts a JOIN orders o ON o.id = a.order_ref
       WHERE a.chain = @chain`,
    ),
  );

const selectSweepTxs = (db: Db) =>
  prepared(db, 'reconcile.sweepTxs', () =>
    db.$client.prepare<
      { chain: string },
      Omit<SweepTxRecord, 'valueBase' | 'feeBase'> & { valueBase: string; feeBase: string | null }
    >(
      `SELECT x.sweep_id AS sweepId, x.role, x.from_address AS fromAddress, x.to_address AS toAddress,
              s.symbol, s.destination_kind AS destinationKind, x.value_base AS valueBase, x.tx_hash AS txHash,
              x.status, x.block_num AS blockNum, x.fee_base AS feeBase, x.fee_payer AS feePayer
       FROM sweep_txs x JOIN sweeps s ON s.id = x.sweep_id
       WHERE x.chain = @chain`,
    ),
  );

/**
 * Everything recorded on `chain` that moves funds on Kassa's addresses: its collections' deposit
 * addresses, the incoming transfers the scanner stored in blocks up to `atHeight`, every payout and
 * sweep transaction (with their block, so the caller can tell what had landed by then).
 */
export function chainRecords(db: Db, args: { chain: string; atHeight: number }): ChainRecords {
  const { chain } = args;
  return {
    deposits: selectDeposits(db).all({ chain }),
    transfersIn: selectTransfersIn(db)
      .all({ chain, atHeight: args.atHeight })
      .map((r) => ({ ...r, amountBase: BigInt(r.amountBase) })),
    payouts: selectPayouts(db)
      .all({ chain })
      .map((r) => ({ ...r, amountBase: BigInt(r.amountBase) })),
    sweepTxs: selectSweepTxs(db)
      .all({ chain })
      .map((r) => ({
        ...r,
        valueBase: BigInt(r.valueBase),
        feeBase: r.feeBase === null ? null : BigInt(r.feeBase),
      })),
  };
}

const selectTxFees = (db: Db) =>
  prepared(db, 'reconcile.txFees', () =>
    db.$client.prepare<{ chain: string }, { txHash: string; feeBase: string }>(
      'SELECT tx_hash AS txHash, fee_base AS feeBase FROM tx_fees WHERE chain = @chain',
    ),
  );

/** Fees read from the chain earlier for transactions whose record holds none (txHash → base units). */
export function cachedTxFees(db: Db, chain: string): Map<string, bigint> {
  return new Map(
    selectTxFees(db)
      .all({ chain })
      .map((r) => [r.txHash, BigInt(r.feeBase)]),
  );
}

/** A hot wallet's float (what it holds beyond what the records put into it) as last accepted. */
export interface WalletFloat {
  chain: string;
  address: string;
  symbol: string;
  floatBase: bigint;
  updatedAt: number;
}

const selectFloats = (db: Db) =>
  prepared(db, 'reconcile.floats', () =>
    db.$client.prepare<
      { chain: string },
      { chain: string; address: string; symbol: string; floatBase: string; updatedAt: number }
    >(
      `SELECT chain, address, symbol, float_base AS floatBase, updated_at AS updatedAt
       FROM wallet_floats WHERE chain = @chain`,
    ),
  );

/** The floats recorded for a chain's hot wallets. */
export function walletFloatsOf(db: Db, chain: string): WalletFloat[] {
  return selectFloats(db)
    .all({ chain })
    .map((r) => ({ ...r, floatBase: BigInt(r.floatBase) }));
}

/** One run of the reconciliation, as stored. */
export interface ReconciliationRun {
  id: string;
  startedAt: number;
  finishedAt: number;
  chains: string[];
  addresses: number;
  unexplained: number;
  /** The report as JSON text. */
  report: string;
}

/**
 * Stores a run with what it learnt, in one transaction: the run itself, the floats it accepted
 * (a hot wallet's float only grows unless the operator accepts a smaller one), and the fees of
 * final transactions it read from the chain (never read again).
 */
export function recordReconciliation(
  db: Db,
  args: {
    run: ReconciliationRun;
    floats: Omit<WalletFloat, 'updatedAt'>[];
    txFees: { chain: string; txHash: string; feeBase: bigint }[];
  },
): void {
  const { run } = args;
  const c = db.$client;
  const insertRun = c.prepare(
    `INSERT INTO reconciliations (id, started_at, finished_at, chains, addresses, unexplained, report)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const upsertFloat = c.prepare(
    `INSERT INTO wallet_floats (chain, address, symbol, float_base, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (chain, address, symbol) DO UPDATE SET float_base = excluded.float_base, updated_at = excluded.updated_at`,
  );
  const insertFee = c.prepare('INSERT OR IGNORE INTO tx_fees (chain, tx_hash, fee_base) VALUES (?, ?, ?)');
  writeTransaction(db, () => {
    insertRun.run(
      run.id,
      run.startedAt,
      run.finishedAt,
      run.chains.join(','),
      run.addresses,
      run.unexplained,
      run.report,
    );
    for (const f of args.floats)
      upsertFloat.run(f.chain, f.address, f.symbol, f.floatBase.toString(), run.finishedAt);
    for (const f of args.txFees) insertFee.run(f.chain, f.txHash, f.feeBase.toString());
  });
}

const selectLastRun = (db: Db) =>
  prepared(db, 'reconcile.lastRun', () =>
    db.$client.prepare<
      [],
      {
        id: string;
        startedAt: number;
        finishedAt: number;
        chains: string;
        addresses: number;
        unexplained: number;
        report: string;
      }
    >(
      `SELECT id, started_at AS startedAt, finished_at AS finishedAt, chains, addresses, unexplained, report
       FROM reconciliations ORDER BY finished_at DESC LIMIT 1`,
    ),
  );

/** The latest run (for /metrics and the dashboard), or null before the first. */
export function lastReconciliation(db: Db): ReconciliationRun | null {
  const r = selectLastRun(db).get();
  return r ? { ...r, chains: r.chains === '' ? [] : r.chains.split(',') } : null;
}
