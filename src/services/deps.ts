import type { ChainHealth } from '../chains/health.ts';
import type { ChainAdapter } from '../chains/port.ts';
import type { Config } from '../config/schema.ts';
import type { Store } from '../db/store.ts';
import type { Chain } from '../domain/chains.ts';
import type { KeyRing } from '../keys/key-ring.ts';
import type { Clock } from '../lib/clock.ts';
import type { CryptoBox } from '../lib/crypto-box.ts';
import type { Logger } from '../lib/logger.ts';
import type { PayoutFunding } from './payout-funding.ts';

/**
 * The dependency object: what services, routes, the dashboard, jobs and commands need from the
 * outside world, and the one name for it. bootstrap.ts builds it; a function that needs only part
 * of it says so with `Pick<Deps, …>`.
 */
export interface Deps {
  config: Config;
  /** The database, as a port of async repository functions (db/store.ts); never the SQL driver. */
  db: Store;
  /**
   * Which database `db` is on, for messages: `sqlite` (name: the file's path) or `postgres` (name:
   * the URL with its password hidden).
   */
  database: { engine: 'sqlite' | 'postgres'; name: string };
  clock: Clock;
  logger: Logger;
  /** Needs KASSA_MASTER_KEY; null in commands that never touch merchant secrets. */
  box: CryptoBox | null;
  /** Needs KASSA_MNEMONIC; null in commands that never touch keys. */
  keys: KeyRing | null;
  /** Checks whether a hot wallet can fund a payout; null when no chain is connected (accept and queue). */
  payoutFunding: PayoutFunding | null;
  /** Adapters of the enabled chains (empty unless bootstrapped with `chains: true`). */
  adapters: Map<Chain, ChainAdapter>;
  /**
   * What the worker's chain jobs know about each chain right now: filled when the worker runs in
   * this process (`kassa start`), empty in `kassa api`, where readiness reads the checkpoints.
   */
  health: ChainHealth;
  /**
   * Releases the database (the SQLite connection at once; the PostgreSQL pool once its connections
   * are back), timers and the logger.
   */
  close(): Promise<void>;
}

/** The key ring, or a clear error when the process was started without a mnemonic. */
export function requireKeys(deps: Deps): KeyRing {
  if (!deps.keys) throw new Error('KASSA_MNEMONIC is not set: this command needs the operator keys.');
  return deps.keys;
}

/** The secret box, or a clear error when the process was started without a master key. */
export function requireBox(deps: Deps): CryptoBox {
  if (!deps.box)
    throw new Error('KASSA_MASTER_KEY is not set: this command needs to read or write merchant secrets.');
  return deps.box;
}
