import type { HexAddress } from './encoding.ts';
import { PARAMS } from './params.ts';
import type { Token } from './trc20.ts';

/**
 * A TRON account as the fake node keeps it. TRX in sun. Bandwidth and energy usage are kept with
 * the time of their last consumption and recover linearly over 24 h (java-tron's window, simplified).
 * `stakedNet`/`stakedEnergy` are the daily limits the account holds from staking or delegation.
 */
export interface Account {
  balance: bigint;
  readonly createdAt: number;
  lastOperationAt: number;
  freeNetUsed: number;
  freeNetAt: number;
  stakedNet: number;
  netUsed: number;
  netAt: number;
  stakedEnergy: number;
  energyUsed: number;
  energyAt: number;
  readonly isContract: boolean;
}

/** Everything a block changes: accounts and the native TRC-20 tokens. */
export interface State {
  readonly accounts: Map<HexAddress, Account>;
  readonly tokens: Map<HexAddress, Token>;
}

/** A state with no accounts and no tokens. */
export function emptyState(): State {
  return { accounts: new Map(), tokens: new Map() };
}

/** A deep copy: blocks keep their own snapshot, so later blocks and forks never alter it. */
export function cloneState(state: State): State {
  const accounts = new Map<HexAddress, Account>();
  for (const [address, account] of state.accounts) accounts.set(address, { ...account });
  const tokens = new Map<HexAddress, Token>();
  for (const [address, token] of state.tokens) {
    tokens.set(address, {
      ...token,
      balances: new Map(token.balances),
      allowances: new Map(token.allowances),
    });
  }
  return { accounts, tokens };
}

/** A fresh account created at `at` (ms), as a TRX transfer or the genesis creates it. */
export function newAccount(at: number, options: { isContract?: boolean } = {}): Account {
  return {
    balance: 0n,
    createdAt: at,
    lastOperationAt: 0,
    freeNetUsed: 0,
    freeNetAt: 0,
    stakedNet: 0,
    netUsed: 0,
    netAt: 0,
    stakedEnergy: 0,
    energyUsed: 0,
    energyAt: 0,
    isContract: options.isContract ?? false,
  };
}

/** Usage left of `used` consumed at `since` when it is now `now` (linear recovery over the window). */
export function recovered(used: number, since: number, now: number): number {
  if (used <= 0) return 0;
  const elapsed = now - since;
  if (elapsed >= PARAMS.resourceWindowMs) return 0;
  if (elapsed <= 0) return used;
  return Math.ceil((used * (PARAMS.resourceWindowMs - elapsed)) / PARAMS.resourceWindowMs);
}

/** Free bandwidth in use at `now`. */
export function freeNetUsedAt(account: Account, now: number): number {
  return recovered(account.freeNetUsed, account.freeNetAt, now);
}

/** Staked bandwidth in use at `now`. */
export function netUsedAt(account: Account, now: number): number {
  return recovered(account.netUsed, account.netAt, now);
}

/** Staked energy in use at `now`. */
export function energyUsedAt(account: Account, now: number): number {
  return recovered(account.energyUsed, account.energyAt, now);
}
