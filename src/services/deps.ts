import type { Config } from '../config/schema.ts';
import type { Db } from '../db/client.ts';
import type { KeyRing } from '../keys/key-ring.ts';
import type { Clock } from '../lib/clock.ts';
import type { CryptoBox } from '../lib/crypto-box.ts';
import type { Logger } from '../lib/logger.ts';
import type { PayoutFunding } from './payout-funding.ts';

/** What services need from the outside world; bootstrap.ts builds it, tests build their own. */
export interface Deps {
  config: Config;
  db: Db;
  clock: Clock;
  logger: Logger;
  /** Needs KASSA_MASTER_KEY; null in commands that never touch merchant secrets. */
  box: CryptoBox | null;
  /** Needs KASSA_MNEMONIC; null in commands that never touch keys. */
  keys: KeyRing | null;
  /** Checks whether a hot wallet can fund a payout; null when no chain is connected (accept and queue). */
  payoutFunding: PayoutFunding | null;
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
