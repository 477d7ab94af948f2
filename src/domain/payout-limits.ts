import { MESSAGES, payoutRefused } from './errors.ts';
import { exceedsDecimal } from './money.ts';

/** Decimal amounts per symbol, as configured (`{"USDT": "5000"}`). */
export type SymbolAmounts = Readonly<Record<string, string>>;

/** The limit settings of `payouts.limits` and of each `payouts.merchants.<id>`. */
export interface LimitSettings {
  maxAmount?: SymbolAmounts;
  dailyAmount?: SymbolAmounts;
  approvalAbove?: SymbolAmounts;
}

/** A merchant's limits for one symbol (global ones replaced symbol by symbol by the merchant's own). */
export interface SymbolLimits {
  maxAmount: string | null;
  dailyAmount: string | null;
  approvalAbove: string | null;
}

/** The limits that apply to a merchant's payouts of `symbol`. */
export function limitsFor(
  global: LimitSettings,
  own: LimitSettings | undefined,
  symbol: string,
): SymbolLimits {
  const pick = (key: keyof LimitSettings) => own?.[key]?.[symbol] ?? global[key]?.[symbol] ?? null;
  return {
    maxAmount: pick('maxAmount'),
    dailyAmount: pick('dailyAmount'),
    approvalAbove: pick('approvalAbove'),
  };
}

/** Refuses a single payout above `maxAmount` (422 with the contract's message). */
export function checkSinglePayout(limits: SymbolLimits, amountBase: bigint, decimals: number): void {
  if (limits.maxAmount !== null && exceedsDecimal(amountBase, decimals, limits.maxAmount))
    throw payoutRefused(MESSAGES.payoutAboveLimit);
}

/**
 * Refuses a payout that would take the merchant's payouts of the last 24 hours (`paidBase`, not
 * counting failed or expired ones) past `dailyAmount`.
 */
export function checkDailyPayouts(
  limits: SymbolLimits,
  paidBase: bigint,
  amountBase: bigint,
  decimals: number,
): void {
  if (limits.dailyAmount !== null && exceedsDecimal(paidBase + amountBase, decimals, limits.dailyAmount))
    throw payoutRefused(MESSAGES.payoutAboveDailyLimit);
}

/** Whether a payout must wait for the operator's approval (amount above `approvalAbove`). */
export function needsApproval(limits: SymbolLimits, amountBase: bigint, decimals: number): boolean {
  return limits.approvalAbove !== null && exceedsDecimal(amountBase, decimals, limits.approvalAbove);
}

/** Refuses a receiver that is not on the merchant's allowlist for the chain (none configured: any). */
export function checkAllowlist(allowed: ReadonlySet<string> | null, receiver: string): void {
  if (allowed !== null && !allowed.has(receiver)) throw payoutRefused(MESSAGES.receiveAddressNotAllowed);
}
