/**
 * The fake's gas model: simplified, but with Sui's structure and invariants.
 *
 * - computation = gas price × 1,000 units (Sui's lowest computation bucket, where payment PTBs fall);
 * - storage = 1,976,000 MIST for every object version written (a coin's real storage cost at
 *   storage price 76);
 * - rebate = 99% of the `storage_rebate` of every input object mutated or deleted; the other 1% is
 *   the non-refundable storage fee;
 * - net charge = computation + storage − rebate, taken from the (smashed) gas coin;
 * - computation + storage must fit in the budget, otherwise the transaction fails with
 *   InsufficientGas, its commands are reverted and exactly the whole budget is charged.
 */

/** Computation units every transaction costs. */
export const COMPUTATION_UNITS = 1_000n;
/** Storage cost of writing one object version, in MIST. */
export const OBJECT_STORAGE_COST = 1_976_000n;
/** Share of the storage rebate refunded, in basis points. */
export const REBATE_BPS = 9_900n;
/** Budget bounds the node enforces before execution. */
export const MIN_BUDGET_UNITS = 1_000n;
export const MAX_GAS_BUDGET = 50_000_000_000n;
/** At most this many gas coins can pay for one transaction. */
export const MAX_GAS_PAYMENT_OBJECTS = 256;

/** A gas cost summary in MIST. */
export interface GasCost {
  computationCost: bigint;
  storageCost: bigint;
  storageRebate: bigint;
  nonRefundableStorageFee: bigint;
}

/** Net MIST taken from the gas coin. Negative when rebates exceed costs. */
export function netGas(cost: GasCost): bigint {
  return cost.computationCost + cost.storageCost - cost.storageRebate;
}

/** The minimum budget for a gas price. */
export function minBudget(gasPrice: bigint): bigint {
  return gasPrice * MIN_BUDGET_UNITS;
}

/**
 * Cost of a transaction that wrote `written` object versions and mutated or deleted input objects
 * whose stored rebates sum to `inputRebates`.
 */
export function gasCost(gasPrice: bigint, written: number, inputRebates: bigint): GasCost {
  const storageRebate = (inputRebates * REBATE_BPS) / 10_000n;
  return {
    computationCost: gasPrice * COMPUTATION_UNITS,
    storageCost: OBJECT_STORAGE_COST * BigInt(written),
    storageRebate,
    nonRefundableStorageFee: inputRebates - storageRebate,
  };
}

/** Whether the cost fits the budget (computation and storage must, rebates are not counted). */
export function fitsBudget(cost: GasCost, budget: bigint): boolean {
  return cost.computationCost + cost.storageCost <= budget;
}

/**
 * The cost charged when a transaction runs out of gas: only the gas coin is written, and computation
 * absorbs the rest so that exactly the budget is taken.
 */
export function outOfGasCost(budget: bigint, gasWritten: number, gasInputRebates: bigint): GasCost {
  const base = gasCost(0n, gasWritten, gasInputRebates);
  const computationCost = budget - base.storageCost + base.storageRebate;
  return { ...base, computationCost: computationCost > 0n ? computationCost : 0n };
}
