import type { ChainAdapter, SweepQuote, TokenSpec } from '../chains/port.ts';
import { familyOf } from '../domain/chains.ts';
import { parseAmount } from '../domain/money.ts';
import { type Deps, requireKeys } from './deps.ts';
import { listTokens } from './resolve-token.ts';
import { minAmountBase, nativeDecimals, type ResolvedSweepSettings } from './sweep-settings.ts';

/**
 * What a pass would do with one address and token:
 * - `sweep`: worth it now;
 * - `below_min`: holds less than `minAmount` (it waits, and no fee is spent on it);
 * - `fee_too_high`: the fee would exceed `maxFeeRatio` of what moves;
 * - `nothing`: the chain shows nothing to move (already swept, or moved behind Kassa's back);
 * - `unpriced`: the chain could not price it now (the reason is in `note`).
 */
export type SweepVerdict = 'sweep' | 'below_min' | 'fee_too_high' | 'nothing' | 'unpriced';

/** One line of `kassa sweeps plan`. */
export interface SweepPlanItem {
  chain: string;
  address: string;
  depositIndex: number;
  token: TokenSpec;
  /** What the records say the address still holds of the token. */
  unsweptBase: bigint;
  quote: SweepQuote | null;
  verdict: SweepVerdict;
  note: string | null;
}

/** How many addresses are priced at once (each price is a few node requests). */
const CONCURRENCY = 8;

/**
 * Whether a sweep's fee (native coin) stays within `maxFeeRatio` of what it moves. A native sweep
 * compares like with like; a token sweep converts the fee with `nativeValue` (token units per native
 * coin) and is not checked when that is unset (minAmount still applies).
 */
export function feeWithinRatio(
  settings: ResolvedSweepSettings,
  token: TokenSpec,
  quote: Pick<SweepQuote, 'feeBase' | 'amountBase'>,
): boolean {
  if (quote.amountBase <= 0n) return false;
  if (quote.feeBase <= 0n) return true;
  const ppm = BigInt(Math.round(settings.maxFeeRatio * 1_000_000));
  if (token.contract === null) return quote.feeBase * 1_000_000n <= quote.amountBase * ppm;
  if (settings.nativeValue === null) return true;
  const value = parseAmount(settings.nativeValue, 6);
  if (!value.ok) return true; // "0": no price to weigh the fee with
  // fee in token base units = fee × value(µ) × 10^tokenDecimals ÷ (10^nativeDecimals × 10^6)
  const feeInToken =
    (quote.feeBase * value.base * 10n ** BigInt(token.decimals)) /
    (10n ** BigInt(nativeDecimals(settings.chain)) * 1_000_000n);
  return feeInToken * 1_000_000n <= quote.amountBase * ppm;
}

/**
 * What sweeping a chain would do now, without doing it: every deposit address whose order is final
 * (or that holds unattributed deposits) and still holds money by the records, priced from the chain
 * (balance, fee, top-up), judged against `minAmount` and `maxFeeRatio`. Tokens come before the
 * native coin of the same address (a native sweep would take the gas a token sweep needs).
 */
export async function planSweeps(
  deps: Pick<Deps, 'db' | 'config' | 'keys'>,
  adapter: ChainAdapter,
  settings: ResolvedSweepSettings,
): Promise<SweepPlanItem[]> {
  const chain = adapter.chain;
  const tokens = (await listTokens(deps)).filter((t) => t.chain === chain);
  const candidates = await deps.db.sweepCandidates({ chain, family: familyOf(chain) });
  const hot = requireKeys(deps as Deps).hotWallet(chain).address;
  const items: SweepPlanItem[] = [];
  for (const c of candidates) {
    const token = tokens.find((t) => t.symbol === c.symbol);
    if (!token) continue; // a token no longer configured is not swept
    items.push({
      chain,
      address: c.address,
      depositIndex: c.depositIndex,
      token: { symbol: token.symbol, contract: token.contract, decimals: token.decimals },
      unsweptBase: c.unsweptBase,
      quote: null,
      verdict: 'unpriced',
      note: null,
    });
  }
  items.sort((a, b) =>
    a.address === b.address
      ? Number(a.token.contract === null) - Number(b.token.contract === null)
      : a.depositIndex - b.depositIndex,
  );
  const price = async (item: SweepPlanItem) => {
    const min = minAmountBase(settings, item.token.symbol, item.token.decimals);
    if (item.unsweptBase < min) {
      item.verdict = 'below_min';
      return;
    }
    if (!adapter.sweepQuote) {
      item.note = `${chain} cannot sweep`;
      return;
    }
    try {
      item.quote = await adapter.sweepQuote({
        from: item.address,
        to: settings.destination as string,
        hot,
        token: item.token,
        margin: settings.feeMargin,
        delegate: settings.delegateEnergy,
      });
    } catch (error) {
      item.note = (error as Error).message;
      return;
    }
    item.verdict =
      item.quote.amountBase === 0n
        ? 'nothing'
        : item.quote.amountBase < min
          ? 'below_min'
          : feeWithinRatio(settings, item.token, item.quote)
            ? 'sweep'
            : 'fee_too_high';
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) {
        const item = items[next++] as SweepPlanItem;
        await price(item);
      }
    }),
  );
  return items;
}
