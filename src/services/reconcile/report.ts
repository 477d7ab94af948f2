import type { Chain } from '../../domain/chains.ts';
import type { HoldingStatus } from './judge-holding.ts';

// What a reconciliation is asked (ReconcileOptions) and what it answers (ReconcileReport).

/** One address in one token: what the records say it holds, what the chain says, and the verdict. */
export interface HoldingLine {
  chain: Chain;
  address: string;
  role: 'deposit' | 'hot';
  symbol: string;
  merchantId: string | null;
  orderId: string | null;
  status: HoldingStatus;
  expected: string;
  actual: string;
  /** actual − expected (negative: missing). */
  difference: string;
  /** Hot wallet: what it holds beyond the records (funded from outside), and the float accepted before. */
  float?: string;
  previousFloat?: string | null;
  /** The records involved: each movement with its transaction, order and signed amount. */
  records: {
    kind: string;
    txHash: string;
    orderId: string | null;
    amount: string;
    inFlight?: true;
    feeUnknown?: true;
  }[];
  /** Earlier records left out of `records` (a hot wallet's history is long; the newest are kept). */
  recordsOmitted?: number;
}

/** One chain's token, all addresses together. */
export interface TokenSummary {
  chain: Chain;
  symbol: string;
  /** On the deposit addresses (chain) and what the records expect there. */
  onDeposits: string;
  expectedOnDeposits: string;
  /** On the hot wallet (chain). */
  onHotWallet: string;
  /** Swept to the operator's treasury address (records). */
  sweptToTreasury: string;
  /** What Kassa owes the merchants: their ledger balances, available + frozen. */
  owedToMerchants: string;
  /** onDeposits + onHotWallet + sweptToTreasury − owedToMerchants (negative: the funds do not cover the ledger). */
  cover: string;
  /** The sum of unexplained differences (negative: missing). */
  unexplained: string;
}

/** A merchant's ledger in one token against its collections' funds still on their deposit addresses. */
export interface MerchantSummary {
  merchantId: string;
  chain: Chain;
  symbol: string;
  available: string;
  frozen: string;
  /** On the deposit addresses of the merchant's collections (the rest was swept or paid out from the pool). */
  onDepositAddresses: string;
}

/** How one chain was read. */
export interface ChainSummary {
  chain: Chain;
  hotWallet: string;
  /** Addresses compared (deposit addresses and hot wallets). */
  addresses: number;
  /** The block the balances are as of (EVM: the scanner's checkpoint), or the head when read at the latest. */
  atHeight: number | null;
  head: number | null;
  scannedHeight: number | null;
  /** Why the chain could not be reconciled (nothing about it is known then). */
  error?: string;
}

/** The outcome of one reconciliation. */
export interface ReconcileReport {
  id: string;
  startedAt: number;
  finishedAt: number;
  /** True when every chain was read and no difference is unexplained. */
  ok: boolean;
  addresses: number;
  unexplained: number;
  inFlight: number;
  unscanned: number;
  chains: ChainSummary[];
  tokens: TokenSummary[];
  merchants: MerchantSummary[];
  /** Every holding not `ok`. */
  differences: HoldingLine[];
  /** Every holding (with `all`). */
  holdings?: HoldingLine[];
}

export interface ReconcileOptions {
  /** One chain only (default: every enabled chain with an adapter). */
  chain?: Chain;
  /** Take each hot wallet's float as it is now, even where it shrank (after the operator withdrew on purpose). */
  accept?: boolean;
  /** Put every holding in the report, not only the differences. */
  all?: boolean;
}
