import { Cron } from 'croner';
import { z } from 'zod';
import { decimalString, symbolAmounts } from './amount-schema.ts';

// The per-chain `sweep` section and the `reconcile` section (issue 12).

/** A croner pattern (5 fields, or 6 with seconds first), checked when the configuration is read. */
const cronPattern = z.string().refine(
  (pattern) => {
    try {
      new Cron(pattern, { paused: true }).stop();
      return true;
    } catch {
      return false;
    }
  },
  { message: 'must be a cron pattern such as "*/10 * * * *" (every 10 minutes)' },
);

/** A chain's `sweep` section: where and when its deposit addresses are swept, and at what cost at most. */
export const sweepSchema = z.object({
  /**
   * Sweep this chain's deposit addresses. Unset: on once a destination is set (the chain must be
   * enabled too); `false` turns sweeping off while keeping the destination.
   */
  enabled: z.boolean().optional(),
  /**
   * `hot` (the chain's hot wallet, which then pays payouts) or a treasury address the operator holds
   * (checked for the chain when Kassa starts). Unset: nothing is swept.
   */
  destination: z.string().min(1).nullable().default(null),
  /** Per token symbol, the least a sweep moves: smaller balances wait (e.g. `{"USDT": "5"}`). */
  minAmount: symbolAmounts,
  /** The most a sweep may cost in fees, as a fraction of what it moves. */
  maxFeeRatio: z.number().min(0).max(1).default(0.05),
  /** When the worker sweeps (croner pattern; default every 10 minutes). */
  schedule: cronPattern.default('*/10 * * * *'),
  /**
   * What one native coin (ETH, BNB, POL, AVAX, TRX, SUI) is worth in the swept tokens' units, to
   * weigh a token sweep's fee against `maxFeeRatio` (the configured tokens are dollar stablecoins).
   * Keep it roughly current; null skips the ratio check for tokens (minAmount still applies).
   */
  nativeValue: decimalString.nullable().default(null),
  /** A top-up covers the estimated gas at today's fee times this (fees move between top-up and transfer). */
  feeMargin: z.number().min(1).max(10).default(1.25),
  /** TRON: lend the transfer's energy from the hot wallet's staked TRX when it has enough, instead of sending TRX to burn. */
  delegateEnergy: z.boolean().default(true),
  /** Sweeps started per pass at most (the rest wait for the next pass). */
  batchSize: z.number().int().min(1).max(100_000).default(200),
});

/** The `reconcile` section: whether and when the worker reconciles. */
export const reconcileSchema = z.object({
  /** Run reconciliation in the worker. */
  enabled: z.boolean().default(true),
  /** When (croner pattern; default daily at 03:17). */
  schedule: cronPattern.default('17 3 * * *'),
});
