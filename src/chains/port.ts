import type { Chain, Family } from '../domain/chains.ts';
import type { EndpointStats } from './rpc/endpoints.ts';

/**
 * The one interface every chain adapter implements (EVM on viem, TRON on tronweb, SUI on
 * @mysten/sui). Adapters normalise every SDK value to bigint base units and the project's address
 * spelling (EIP-55 for EVM, base58 T… for TRON, lowercase 0x…64 for SUI) before returning. What
 * they throw on purpose is a ChainError (errors.ts). Each family implements the methods as actions,
 * one file each in `<family>/actions/`, bound to the port by `<family>/adapter.ts`.
 */

/** A token the adapter watches or pays: contract (EVM/TRON), coin type (SUI), or null for the native coin. */
export interface TokenSpec {
  symbol: string;
  contract: string | null;
  decimals: number;
}

/** Block heights of the chain right now: `head`, and `final` = highest block final under the chain's policy. */
export interface ChainHeads {
  head: number;
  final: number;
}

/** One incoming transfer, as the chain shows it. */
export interface ObservedTransfer {
  txid: string;
  /** Distinguishes transfers inside one transaction: EVM log index, TRON log position, SUI owner+coin type. */
  eventKey: string;
  blockNum: number;
  blockHash: string;
  /** Unix seconds of the block. */
  timestamp: number;
  from: string;
  to: string;
  /** The token's contract as configured (normalised), or null for the native coin. */
  contract: string | null;
  amountBase: bigint;
  /** False when the transaction failed (it never moves money, but is recorded). */
  success: boolean;
}

/** A block as the scanner needs it to detect reorganisations. */
export interface BlockRef {
  number: number;
  hash: string;
  /** Unix seconds. */
  timestamp: number;
}

/** One balance to read: an address's holding of a token. */
export interface BalanceRead {
  address: string;
  token: TokenSpec;
}

/** A signed payout transaction, stored before it is broadcast. */
export interface SignedPayout {
  txHash: string;
  /** What `broadcast` sends again after a crash: the raw signed transaction (hex, JSON or base64). */
  raw: string;
  /** EVM nonce; null on chains without nonces. */
  nonce: number | null;
  /** Epoch ms after which this transaction can never land (TRON expiration); null when it can land any time. */
  validUntil: number | null;
  /** Its spend slot in words: `nonce 14`, `ref 1a2b…, expires <ms>`, `0xcoin@12, …`. */
  slot: string;
  /** EVM: the fee per gas it pays (max fee, or gas price) and the priority fee, in wei; null elsewhere. */
  maxFeePerGas: bigint | null;
  maxPriorityFeePerGas: bigint | null;
}

/** A transaction Kassa signed from a hot wallet, as stored. */
export interface RecordedSpend {
  txHash: string;
  /** The signed transaction as `broadcast` takes it. */
  raw: string;
  nonce: number | null;
  validUntil: number | null;
}

/**
 * Whether a payout's spend slot may be used again (DESIGN.md section 11, "never twice"):
 * - `landed`: one of its transactions is on chain (or known to the node): follow it;
 * - `open`: nothing used the slot yet, or the evidence is not conclusive yet: send the same bytes
 *   again (or re-price at the same nonce), never a transaction in a new slot;
 * - `dead`: none of its transactions can ever land (TRON: expired on a node at or past that time;
 *   Sui: an input version consumed by a transaction Kassa recorded; EVM: the nonce used by a
 *   transaction Kassa recorded for another purpose): a new slot may be signed;
 * - `unexplained`: the slot was used by something Kassa did not record (the nonce is spent and no
 *   transaction of ours is found): the payout is held for the operator.
 */
export type SlotVerdict =
  | { state: 'landed'; txHash: string }
  | { state: 'open'; detail: string }
  | { state: 'dead'; proof: string }
  | { state: 'unexplained'; detail: string };

export type BroadcastResult =
  | { ok: true }
  /** `permanent`: sending these bytes again can never work (bad signature, expired, nonce taken by another tx). */
  | { ok: false; permanent: boolean; error: string };

/**
 * How a sweep of one token out of a deposit address is paid for, priced now (issue 12):
 * - `topup`: the hot wallet first sends the address the native coin its transfer burns (EVM gas,
 *   TRON TRX for energy and bandwidth);
 * - `delegate`: TRON: the hot wallet lends the transfer's energy from its staked TRX (after a small
 *   TRX transfer that activates an address the chain does not know yet) and takes it back after;
 * - `sponsor`: Sui: the hot wallet owns the transfer's gas and signs it too;
 * - `self`: a native-coin sweep pays its own fee out of what it moves.
 */
export interface SweepQuote {
  mode: 'topup' | 'delegate' | 'sponsor' | 'self';
  /** What would move now: the token balance, or for the native coin the balance minus the fee. */
  amountBase: bigint;
  /** Native coin the deposit address must hold for its transfer. */
  needBase: bigint;
  /** Native coin it holds now. */
  haveBase: bigint;
  /** Native coin the hot wallet sends first (0 when none is needed). */
  topUpBase: bigint;
  /** TRON delegate: staked TRX (sun) the hot wallet lends for the transfer's energy; 0 otherwise. */
  delegateSun: bigint;
  /** What the operator pays in native coin, all told: top-up, the hot wallet's own fees, or the fee a native sweep takes. */
  feeBase: bigint;
  /** What the address holds that no transaction can sweep (Sui address balances); 0 elsewhere. */
  unsweepableBase: bigint;
}

/** A signed sweep transfer and what it moves. */
export interface SignedSweep extends SignedPayout {
  amountBase: bigint;
}

/** Where a payout transaction stands on chain. */
export type PayoutLookup =
  | { state: 'unknown' }
  | { state: 'pending' }
  | {
      state: 'mined';
      blockNum: number;
      blockHash: string;
      timestamp: number;
      success: boolean;
      error?: string;
    };

export interface ChainAdapter {
  readonly chain: Chain;
  readonly family: Family;
  /** Checks the RPC (e.g. its chain id). Throws ChainError `wrong_network` when it serves another network. */
  connect(): Promise<void>;
  /** Current head and final heights under the configured confirmation policy. */
  heads(): Promise<ChainHeads>;
  /** A block by height (null when the chain has none there, e.g. after a reorg shortened it). */
  block(height: number): Promise<BlockRef | null>;
  /** The largest range `scan` should be asked for now (adapts to provider limits). */
  scanStep(): number;
  /**
   * Incoming transfers in blocks [from, to] to any of `addresses`, for `tokens` (contract null =
   * native coin). Must return every such transfer exactly as the canonical chain has it.
   */
  scan(
    from: number,
    to: number,
    addresses: ReadonlySet<string>,
    tokens: TokenSpec[],
  ): Promise<ObservedTransfer[]>;
  /** Balance of `address` in a token (native when contract is null), in base units. */
  balance(address: string, token: TokenSpec): Promise<bigint>;
  /**
   * Many balances in few requests (EVM: batched JSON-RPC), all as of block `atHeight` (null: the
   * latest), in the order of `reads`. Chains without it are read with `balance`, a few at a time.
   */
  balances?(reads: BalanceRead[], atHeight: number | null): Promise<bigint[]>;
  /** Native coin a payout of this token will burn in fees, at most (a pessimistic estimate). */
  payoutFeeEstimate(from: string, to: string, token: TokenSpec, amountBase: bigint): Promise<bigint>;
  /**
   * Builds and signs a payout. `nonce` is chosen by the caller on nonce chains (adapter tells the
   * chain's view with `nextNonce`). Throws ChainError `payout_rejected` when the chain would refuse it
   * for good (errors.ts lists the other codes).
   */
  signPayout(input: {
    privateKey: Buffer;
    from: string;
    to: string;
    token: TokenSpec;
    amountBase: bigint;
    nonce: number | null;
  }): Promise<SignedPayout>;
  /** Sends signed bytes; sending the same bytes twice is harmless. */
  broadcast(signed: { raw: string; txHash: string }): Promise<BroadcastResult>;
  /** Where a transaction stands. */
  lookup(txHash: string): Promise<PayoutLookup>;
  /** The next nonce the chain expects from `address` counting pending transactions (nonce chains only). */
  nextNonce?(address: string): Promise<number>;
  /**
   * Judges a payout's spend slot from the chain (see SlotVerdict): `attempts` are the payout's own
   * transactions in that slot (the original and its replacements), `recorded` other transactions
   * Kassa signed from the same wallet. Every read behind the verdict comes from one pinned endpoint
   * and is repeated on a second one where configured; a verdict that is not proven on every
   * endpoint asked is never `dead`.
   */
  judgeSlot(input: {
    from: string;
    attempts: RecordedSpend[];
    recorded: RecordedSpend[];
  }): Promise<SlotVerdict>;
  /**
   * EVM: signs a replacement of a stuck transaction in the same slot (same nonce, same call) paying
   * more: at least the node's replacement minimum (+12.5 %) and today's fee, never above `capWei`
   * per gas. Null when today's fee does not exceed what the transaction pays, or the cap is reached.
   */
  reprice?(input: { privateKey: Buffer; raw: string; capWei: bigint }): Promise<SignedPayout | null>;
  /**
   * Prices sweeping `token` from deposit address `from` to `to`, with hot wallet `hot` paying (see
   * SweepQuote). A top-up covers today's fee times `margin`; `delegate` allows TRON energy lending.
   */
  sweepQuote?(input: {
    from: string;
    to: string;
    hot: string;
    token: TokenSpec;
    margin: number;
    delegate: boolean;
  }): Promise<SweepQuote>;
  /**
   * Signs the transfer of deposit address `from`'s whole balance of `token` to `to` with its key (a
   * native sweep moves the balance minus its fee). `nonce` on nonce chains. Sui: `sponsor` (the hot
   * wallet) owns and signs the gas. Throws ChainError `wallet_underfunded` when the address lacks the
   * native coin its transfer burns at today's fee, `payout_rejected` when nothing can move.
   */
  signSweep?(input: {
    privateKey: Buffer;
    from: string;
    to: string;
    token: TokenSpec;
    nonce: number | null;
    sponsor?: { address: string; privateKey: Buffer };
  }): Promise<SignedSweep>;
  /** TRON: signs lending `sun` of staked TRX as energy from `from` (the hot wallet) to `to`, or (`reclaim`) taking it back. */
  signDelegation?(input: {
    privateKey: Buffer;
    from: string;
    to: string;
    sun: bigint;
    reclaim: boolean;
  }): Promise<SignedPayout>;
  /** Native coin a mined transaction burnt, charged to its fee payer; null when the chain does not know it. */
  feePaid?(txHash: string): Promise<bigint | null>;
  /** Requests and transient errors per RPC URL (URLs redacted), for /metrics; counters only grow. */
  rpcStatistics?(): EndpointStats[];
  /** Releases sockets and timers. */
  close?(): Promise<void>;
}
