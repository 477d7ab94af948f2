import type { Network } from '../../domain/chains.ts';
import type { CursorTimes, ReorgStats } from '../repositories/ops.ts';
import type { TokenRecord } from '../repositories/tokens.ts';

/** Settings, tokens the operator added, and the figures of readiness and metrics. Part of the Store port (../store.ts). */
export interface OperationsStore {
  // Settings (repositories/settings.ts)
  /** Reads one installation fact. */
  getSetting(key: string): Promise<string | null>;
  /** Writes one installation fact only if it is not set yet; returns the value now stored. */
  setSettingOnce(key: string, value: string): Promise<string>;
  /** Writes one installation fact, replacing what was there. */
  setSetting(key: string, value: string): Promise<void>;
  // Tokens added by the operator (repositories/tokens.ts)
  /** Adds a token, or replaces the contract and decimals of the same (network, chain, symbol). */
  upsertToken(token: TokenRecord, now: number): Promise<void>;
  /** Operator-added tokens of a network. */
  listAddedTokens(network: Network): Promise<TokenRecord[]>;
  // Operations: readiness and metrics (repositories/ops.ts)
  /**
   * Proves the database takes writes: upserts one settings row (a real write, through the same lock
   * and WAL as every other). Throws what SQLite throws (read-only file, disk full), or `busy` when
   * another process holds the write lock (without waiting for it on the event loop).
   */
  probeWrite(now: number): Promise<void>;
  /** Every chain's checkpoint with its write time. */
  cursorTimes(): Promise<CursorTimes[]>;
  /** Every chain's reorganisation counters, from the checkpoints. */
  reorgStats(): Promise<ReorgStats[]>;
  /** Orders counted by (chain, type, status): one pass over the (chain, type, status) index. */
  orderCounts(): Promise<{ chain: string; type: string; status: string; n: number }[]>;
  /** Per chain, the creation time (epoch ms) of the oldest payout still waiting to be sent (INIT). */
  oldestQueuedPayouts(): Promise<{ chain: string; createdAt: number }[]>;
  /** Webhook events counted by status (pending, delivered, failed), and the oldest pending one's creation. */
  webhookEventCounts(): Promise<{
    byStatus: { status: string; n: number }[];
    oldestPendingAt: number | null;
  }>;
  /**
   * Delivery attempts recorded after attempt row `afterId` (rows only ever get appended, with growing
   * ids): how many, how many a receiver accepted with a 2xx, and the last id seen. Lets a caller keep
   * running totals while reading only the new rows.
   */
  webhookAttemptsSince(afterId: number): Promise<{ attempts: number; delivered: number; lastId: number }>;
}
