import type { Holding } from './holdings.ts';

/**
 * How one address's balance in one token compares with the records (pure):
 * - `ok`: the chain holds exactly what the records say (for a hot wallet: its float did not shrink);
 * - `in_flight`: the difference lies within what transactions signed but not yet seen in a block
 *   would move; it settles once they land or are dropped (run again);
 * - `unscanned`: a deposit address holds more than recorded while the scanner has not yet read the
 *   newest blocks (a deposit it will record);
 * - `unexplained`: nothing Kassa recorded accounts for the difference.
 */
export type HoldingStatus = 'ok' | 'in_flight' | 'unscanned' | 'unexplained';

/** A holding judged against the chain. */
export interface JudgedHolding {
  status: HoldingStatus;
  /** What the records put on the address (landed movements; for a hot wallet plus its float). */
  expectedBase: bigint;
  actualBase: bigint;
  /** actual − expected; zero when `ok`. For a hot wallet whose float grew, zero (the growth is the new float). */
  differenceBase: bigint;
  /** Hot wallet: what it holds beyond the records now, and the float accepted before (null the first time). */
  floatBase?: bigint;
  previousFloatBase?: bigint | null;
}

/**
 * Judges a holding: deposit addresses must hold exactly their landed movements; a hot wallet holds
 * its landed movements plus a float the operator put in from outside, which may grow (funding) but
 * not shrink (funds left without a record) unless `accept` takes the new float.
 */
export function judgeHolding(
  holding: Holding,
  actualBase: bigint,
  options: { previousFloatBase: bigint | null; scannerBehind: boolean; accept: boolean },
): JudgedHolding {
  let recorded = 0n;
  let low = 0n;
  let high = 0n;
  let feeUnknown = false;
  for (const m of holding.movements) {
    if (m.feeUnknown) feeUnknown = true;
    if (!m.inFlight) recorded += m.amountBase;
    else if (m.amountBase < 0n) low += m.amountBase;
    else high += m.amountBase;
  }
  const settles = (difference: bigint) => (low < 0n || high > 0n) && difference >= low && difference <= high;

  if (holding.role === 'hot') {
    const floatBase = actualBase - recorded;
    const previous = options.previousFloatBase;
    const base = { actualBase, floatBase, previousFloatBase: previous };
    if (previous === null || floatBase >= previous || options.accept)
      return { ...base, status: 'ok', expectedBase: actualBase, differenceBase: 0n };
    const differenceBase = floatBase - previous;
    const status = settles(differenceBase) && !feeUnknown ? 'in_flight' : 'unexplained';
    return { ...base, status, expectedBase: recorded + previous, differenceBase };
  }

  const differenceBase = actualBase - recorded;
  let status: HoldingStatus = 'ok';
  if (differenceBase !== 0n) {
    if (settles(differenceBase) && !feeUnknown) status = 'in_flight';
    else if (differenceBase > 0n && options.scannerBehind) status = 'unscanned';
    else status = 'unexplained';
  }
  return { status, expectedBase: recorded, actualBase, differenceBase };
}
