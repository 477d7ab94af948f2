import type { HexAddress } from './encoding.ts';
import { PARAMS } from './params.ts';
import type { Token } from './trc20.ts';

/**
 * A TRON account as the fake node keeps it. TRX in sun. Bandwidth and energy usage are kept with
 * the time of their last consumption and recover linearly over 24 h (java-tron's window, simplified).
 * `stakedNet`/`stakedEnergy` are fixed daily limits (a fixture: staking or renting done elsewhere).
 * Stake 2.0 energy is kept in sun, as java-tron keeps it: TRX the account froze for energy
 * (`frozenEnergySun`), the part of it lent to others (`delegatedEnergySun`) and TRX others lent it
 * (`acquiredEnergySun`); the energy it gives is priced by the network's total weight (energyOfSun).
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
  frozenEnergySun: bigint;
  delegatedEnergySun: bigint;
  acquiredEnergySun: bigint;
  readonly isContract: boolean;
}

/** Everything a block changes: accounts, the native TRC-20 tokens, and energy lent (sun, keyed `owner>receiver`). */
export interface State {
  readonly accounts: Map<HexAddress, Account>;
  readonly tokens: Map<HexAddress, Token>;
  readonly delegations: Map<string, bigint>;
}

/** A state with no accounts and no tokens. */
export function emptyState(): State {
  return { accounts: new Map(), tokens: new Map(), delegations: new Map() };
}

/** The key of the energy `owner` lends `receiver` in State.delegations. */
export const delegationKey = (owner: HexAddress, receiver: HexAddress) => `${owner}>${receiver}`;

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
  return { accounts, tokens, delegations: new Map(state.delegations) };
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
    frozenEnergySun: 0n,
    delegatedEnergySun: 0n,
    acquiredEnergySun: 0n,
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

/** Daily energy `sun` of staked TRX gives: its share of the network's energy limit (java-tron's Stake 2.0 rule). */
export function energyOfSun(sun: bigint): number {
  if (sun <= 0n) return 0;
  return Number((sun * PARAMS.totalEnergyLimit) / (PARAMS.totalEnergyWeight * 1_000_000n));
}

/** Staked TRX (sun) that gives `energy` a day, rounded up. */
export function sunOfEnergy(energy: number): bigint {
  const weighted = BigInt(energy) * PARAMS.totalEnergyWeight * 1_000_000n;
  return (weighted + PARAMS.totalEnergyLimit - 1n) / PARAMS.totalEnergyLimit;
}

/** The account's daily energy: fixed stake plus what its own frozen TRX (minus what it lent) and lent TRX give. */
export function energyLimitOf(account: Account): number {
  return (
    account.stakedEnergy +
    energyOfSun(account.frozenEnergySun - account.delegatedEnergySun + account.acquiredEnergySun)
  );
}

/**
 * Frozen TRX the account may still lend: its own frozen energy TRX not lent yet, less the share its
 * current energy use holds (java-tron's getCanDelegatedMaxSize: used energy cannot be lent away).
 */
export function delegatableEnergySun(account: Account, now: number): bigint {
  const own = account.frozenEnergySun - account.delegatedEnergySun;
  if (own <= 0n) return 0n;
  const limit = energyLimitOf(account);
  const used = energyUsedAt(account, now);
  if (limit <= 0 || used <= 0) return own;
  const usedShare = (own * BigInt(Math.min(used, limit))) / BigInt(limit);
  return own - usedShare;
}
