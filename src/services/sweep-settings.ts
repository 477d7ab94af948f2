import { activeChain } from '../config/active-chain.ts';
import type { Config } from '../config/schema.ts';
import { type Chain, familyOf } from '../domain/chains.ts';
import { parseAmount } from '../domain/money.ts';
import { isAddressForChain, normaliseAddress } from '../keys/address-format.ts';
import type { KeyRing } from '../keys/key-ring.ts';

/** A chain's sweep settings, resolved: where to, the thresholds in base units per symbol, the fee rules. */
export interface ResolvedSweepSettings {
  chain: Chain;
  /** On: the chain is enabled, a destination is set, and `enabled` is not false. */
  active: boolean;
  /** Why it is off, in words, when it is. */
  off: string | null;
  destination: string | null;
  destinationKind: 'hot' | 'treasury';
  /** Upper-cased symbol → decimal string; parsed with the token's decimals by minAmountBase. */
  minAmount: Record<string, string>;
  maxFeeRatio: number;
  /** Native coin value in token units (decimal string), or null (the ratio is not checked for tokens). */
  nativeValue: string | null;
  feeMargin: number;
  delegateEnergy: boolean;
  batchSize: number;
  schedule: string;
}

/** The native coin's decimals of a chain. */
export const nativeDecimals = (chain: Chain): number => ({ evm: 18, tron: 6, sui: 9 })[familyOf(chain)];

/**
 * Resolves `chains.<CHAIN>.sweep`: the destination `hot` is the chain's hot wallet (needs the key
 * ring), anything else must be an address of the chain (a treasury the operator holds). Throws an
 * Error naming the setting when the treasury address is not one of the chain.
 */
export function sweepSettings(config: Config, chain: Chain, keys: KeyRing | null): ResolvedSweepSettings {
  const s = config.chains[chain].sweep;
  const enabled = activeChain(config, chain).enabled;
  let destination: string | null = null;
  let destinationKind: 'hot' | 'treasury' = 'hot';
  if (s.destination === 'hot') destination = keys ? keys.hotWallet(chain).address : null;
  else if (s.destination !== null) {
    if (!isAddressForChain(chain, s.destination))
      throw new Error(
        `chains.${chain}.sweep.destination: "${s.destination}" is not a ${chain} address (or "hot").`,
      );
    destination = normaliseAddress(chain, s.destination);
    destinationKind = 'treasury';
  }
  const off = !enabled
    ? `${chain} is not enabled`
    : s.destination === null
      ? `chains.${chain}.sweep.destination is not set`
      : s.enabled === false
        ? `chains.${chain}.sweep.enabled is false`
        : destination === null
          ? 'KASSA_MNEMONIC is not set'
          : null;
  const minAmount: Record<string, string> = {};
  for (const [symbol, amount] of Object.entries(s.minAmount)) minAmount[symbol.toUpperCase()] = amount;
  return {
    chain,
    active: off === null,
    off,
    destination,
    destinationKind,
    minAmount,
    maxFeeRatio: s.maxFeeRatio,
    nativeValue: s.nativeValue,
    feeMargin: s.feeMargin,
    delegateEnergy: s.delegateEnergy,
    batchSize: s.batchSize,
    schedule: s.schedule,
  };
}

/**
 * The least a sweep of `symbol` moves, in base units (0 when none is set). Throws an Error naming
 * the setting when it has more decimals than the token.
 */
export function minAmountBase(settings: ResolvedSweepSettings, symbol: string, decimals: number): bigint {
  const text = settings.minAmount[symbol.toUpperCase()];
  if (text === undefined) return 0n;
  const parsed = parseAmount(text, decimals);
  if (parsed.ok) return parsed.base;
  if (parsed.reason === 'not-a-positive-decimal') return 0n; // "0": no threshold
  throw new Error(
    `chains.${settings.chain}.sweep.minAmount.${symbol}: "${text}" has more decimals than ${symbol} (${decimals}).`,
  );
}
