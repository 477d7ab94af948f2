import type { ChainHeads } from './port.ts';

/** A chain's confirmation policy, as configured (config `chains.<CHAIN>.confirmations` and `confirmationFloor`). */
export interface FinalityPolicy {
  /** `finalized`: the chain's own final block; N: the block N − 1 below the head is final. */
  confirmations: number | 'finalized';
  /** At least this many confirmations whatever the policy says (0: none required). */
  confirmationFloor: number;
}

/**
 * The heights of a chain under its policy: `final` is the chain's own final block (`finalized`,
 * which the caller reads only under that policy: EVM's `finalized` tag, TRON's solidified block, the
 * latest Sui checkpoint) or head − N + 1 under N confirmations, lowered to head − floor + 1 when a
 * floor is set, never above the head and never below −1 (nothing final yet). Pure.
 */
export function headsUnder(policy: FinalityPolicy, head: number, finalized: number | null): ChainHeads {
  let final =
    policy.confirmations === 'finalized' ? (finalized ?? -1) : head - Math.max(policy.confirmations, 1) + 1;
  if (policy.confirmationFloor > 0) final = Math.min(final, head - policy.confirmationFloor + 1);
  return { head, final: Math.max(-1, Math.min(final, head)) };
}
