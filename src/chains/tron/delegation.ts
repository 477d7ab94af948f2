import type { NodeJson } from './http.ts';
import { int64 } from './wire.ts';

/**
 * Stake 2.0 energy lending in numbers (chains.md A.8): staked TRX gives its share of the network's
 * daily energy, TotalEnergyLimit × stake ÷ TotalEnergyWeight (the weight counts whole TRX).
 */

/** The network totals from getaccountresource, or null when the node did not print them. */
export interface EnergyTotals {
  limit: bigint;
  weight: bigint;
}

/** Reads TotalEnergyLimit and TotalEnergyWeight out of a getaccountresource answer. */
export function readEnergyTotals(resource: NodeJson): EnergyTotals | null {
  const limit = int64(resource?.TotalEnergyLimit);
  const weight = int64(resource?.TotalEnergyWeight);
  return limit > 0n && weight > 0n ? { limit, weight } : null;
}

/** The least that may be lent at once: 1 TRX. */
export const MIN_DELEGATION_SUN = 1_000_000n;

/** Sun of staked TRX that gives at least `energy` a day (never below 1 TRX). */
export function sunForEnergy(energy: bigint, totals: EnergyTotals): bigint {
  const weighted = energy * totals.weight * 1_000_000n;
  const sun = (weighted + totals.limit - 1n) / totals.limit;
  return sun < MIN_DELEGATION_SUN ? MIN_DELEGATION_SUN : sun;
}

/** Daily energy `sun` of staked TRX gives. */
export function energyOfSun(sun: bigint, totals: EnergyTotals): bigint {
  return (sun * totals.limit) / (totals.weight * 1_000_000n);
}
