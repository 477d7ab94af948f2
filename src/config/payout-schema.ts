import { z } from 'zod';
import { CHAINS } from '../domain/chains.ts';
import { symbolAmounts } from './amount-schema.ts';

// The `payouts` section (issue 11): merchant balances, limits, approvals, re-pricing.

const payoutLimitsSchema = z.object({
  /** Largest single payout per symbol. */
  maxAmount: symbolAmounts,
  /** Most a merchant may pay out per symbol over a rolling 24 hours. */
  dailyAmount: symbolAmounts,
  /** Payouts above this per symbol wait for `kassa payouts approve`. */
  approvalAbove: symbolAmounts,
});

/** The `payouts` section. */
export const payoutsSchema = z.object({
  /** Refuse payouts the merchant's available balance cannot cover (off: the operator pays from their own wallet). */
  requireMerchantBalance: z.boolean().default(true),
  /** A re-priced EVM replacement may pay at most this multiple of its first transaction's fee per gas. */
  maxFeeBump: z.number().min(1).max(100).default(3),
  /** An EVM payout not mined this long after it was sent is re-priced when the network's fee rose past it. */
  repriceAfterSeconds: z.number().int().min(5).default(180),
  /** Limits every merchant gets. */
  limits: payoutLimitsSchema.prefault({}),
  /** Per merchant id: limits replacing the global ones symbol by symbol, and an allowlist of receivers per chain. */
  merchants: z
    .record(
      z.string(),
      payoutLimitsSchema.partial().extend({
        allowedAddresses: z.partialRecord(z.enum(CHAINS), z.array(z.string().min(1))).optional(),
      }),
    )
    .default({}),
});
