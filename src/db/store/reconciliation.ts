import type { ChainRecords, ReconciliationRun, WalletFloat } from '../repositories/reconciliation.ts';

/** What `kassa reconcile` reads from the records and the run it stores. Part of the Store port (../store.ts). */
export interface ReconciliationStore {
  // Reconciliation (repositories/reconciliation.ts)
  /**
   * Everything recorded on `chain` that moves funds on Kassa's addresses: its collections' deposit
   * addresses, the incoming transfers the scanner stored in blocks up to `atHeight`, every payout and
   * sweep transaction (with their block, so the caller can tell what had landed by then).
   */
  chainRecords(args: { chain: string; atHeight: number }): Promise<ChainRecords>;
  /** Fees read from the chain earlier for transactions whose record holds none (txHash → base units). */
  cachedTxFees(chain: string): Promise<Map<string, bigint>>;
  /** The floats recorded for a chain's hot wallets. */
  walletFloatsOf(chain: string): Promise<WalletFloat[]>;
  /**
   * Stores a run with what it learnt, in one transaction: the run itself, the floats it accepted
   * (a hot wallet's float only grows unless the operator accepts a smaller one), and the fees of
   * final transactions it read from the chain (never read again).
   */
  recordReconciliation(args: {
    run: ReconciliationRun;
    floats: Omit<WalletFloat, 'updatedAt'>[];
    txFees: { chain: string; txHash: string; feeBase: bigint }[];
  }): Promise<void>;
  /** The latest run (for /metrics and the dashboard), or null before the first. */
  lastReconciliation(): Promise<ReconciliationRun | null>;
}
