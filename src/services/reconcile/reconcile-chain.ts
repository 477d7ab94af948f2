import type { BalanceRead, ChainAdapter } from '../../chains/port.ts';
import type { WalletFloat } from '../../db/store.ts';
import { type Chain, familyOf } from '../../domain/chains.ts';
import { formatAmount } from '../../domain/money.ts';
import type { Deps } from '../deps.ts';
import { isNodeUnreachable } from '../describe-chain-error.ts';
import type { TokenRef } from '../payout-funding.ts';
import { expectedHoldings, type Holding, landedBy, transactionsNeedingFees } from './holdings.ts';
import { judgeHolding } from './judge-holding.ts';
import { readBalances } from './read-balances.ts';
import type { ChainSummary, HoldingLine, ReconcileOptions } from './report.ts';

// Reading one chain for a reconciliation (reconcile.ts): its records, the fees they lack, every
// address's balance, each holding judged.

/** Records listed per difference at most (the newest). */
const MAX_RECORDS = 100;

/** Fee reads in flight at once (transactions whose record holds no fee, read once and cached when final). */
const FEE_READS_IN_FLIGHT = 8;

/** A line with its amounts in base units, for the sums. */
export interface JudgedLine {
  line: HoldingLine;
  decimals: number;
  actualBase: bigint;
  expectedBase: bigint;
  differenceBase: bigint;
}

/** What reading one chain found. */
export interface ChainOutcome {
  summary: ChainSummary;
  lines: JudgedLine[];
  treasury: Map<string, bigint>;
  floats: Omit<WalletFloat, 'updatedAt'>[];
  txFees: { chain: string; txHash: string; feeBase: bigint }[];
}

/** Reads one chain's records and balances and judges every holding (see reconcile()); throws when the chain cannot be read. */
export async function reconcileChain(
  deps: Pick<Deps, 'db' | 'config' | 'logger'>,
  adapter: ChainAdapter,
  hotWallet: string,
  tokens: TokenRef[],
  options: ReconcileOptions,
  latest = false,
): Promise<ChainOutcome> {
  const chain = adapter.chain;
  const key = familyOf(chain) === 'tron' ? (a: string) => a : (a: string) => a.toLowerCase();
  const { head } = await adapter.heads();
  const cursor = await deps.db.getCursor(chain);
  const scannedHeight = cursor?.height ?? null;
  // A consistent snapshot where the chain can read the past (EVM): the balances as of the last block
  // the scanner stored everything of, so a deposit in a newer block is not yet a difference. Else the
  // latest balances, with every record up to now.
  const atHeight =
    !latest && adapter.balances && scannedHeight !== null ? Math.min(scannedHeight, head) : null;
  const recordsHeight = atHeight ?? Number.MAX_SAFE_INTEGER;
  const records = await deps.db.chainRecords({ chain, atHeight: recordsHeight });

  const cached = await deps.db.cachedTxFees(chain);
  const fees = new Map<string, bigint | null>();
  const txFees: ChainOutcome['txFees'] = [];
  const needed = transactionsNeedingFees(records, recordsHeight).filter((t) => {
    const c = cached.get(t.txHash);
    if (c !== undefined) fees.set(t.txHash, c);
    return c === undefined;
  });
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(FEE_READS_IN_FLIGHT, needed.length) }, async () => {
      while (next < needed.length) {
        const t = needed[next++] as (typeof needed)[number];
        const fee = adapter.feePaid ? await adapter.feePaid(t.txHash).catch(() => null) : null;
        fees.set(t.txHash, fee);
        if (fee !== null && t.final) txFees.push({ chain, txHash: t.txHash, feeBase: fee });
      }
    }),
  );

  const native = tokens.find((t) => t.contract === null);
  const holdings = expectedHoldings(records, {
    atHeight: recordsHeight,
    nativeSymbol: native?.symbol ?? '',
    symbols: tokens.map((t) => t.symbol),
    hotWallet,
    fees,
    key,
  });
  const bySymbol = new Map(tokens.map((t) => [t.symbol, t]));
  const readable = holdings.filter((h) => bySymbol.has(h.symbol));
  const reads: BalanceRead[] = readable.map((h) => ({
    address: h.address,
    token: bySymbol.get(h.symbol) as TokenRef,
  }));
  let actual: bigint[];
  try {
    actual = await readBalances(adapter, reads, atHeight);
  } catch (error) {
    if (atHeight === null || isNodeUnreachable(error)) throw error;
    // The node answered but no longer keeps state that old (the scanner trails far behind): read the latest.
    deps.logger.warn(
      { chain, atHeight, error: (error as Error).message },
      'reconcile: reading the latest balances',
    );
    return reconcileChain(deps, adapter, hotWallet, tokens, options, true);
  }

  const previous = new Map(
    (await deps.db.walletFloatsOf(chain)).map((f) => [`${key(f.address)}/${f.symbol}`, f.floatBase]),
  );
  const scannerBehind = atHeight === null && (scannedHeight === null || scannedHeight < head);
  const lines: JudgedLine[] = [];
  const floats: ChainOutcome['floats'] = [];
  readable.forEach((h, i) => {
    const token = bySymbol.get(h.symbol) as TokenRef;
    const previousFloatBase = previous.get(`${key(h.address)}/${h.symbol}`) ?? null;
    const judged = judgeHolding(h, actual[i] as bigint, {
      previousFloatBase,
      scannerBehind,
      accept: options.accept === true,
    });
    // A float is taken only when nothing is in flight: an incoming sweep broadcast but not yet
    // recorded as landed would otherwise enter the float, and look missing once its record lands.
    if (
      h.role === 'hot' &&
      judged.status === 'ok' &&
      judged.floatBase !== undefined &&
      judged.floatBase !== previousFloatBase &&
      (options.accept === true || !h.movements.some((m) => m.inFlight))
    )
      floats.push({ chain, address: h.address, symbol: h.symbol, floatBase: judged.floatBase });
    lines.push({ ...judged, line: toLine(chain, h, judged, token.decimals), decimals: token.decimals });
  });

  const treasury = new Map<string, bigint>();
  for (const t of records.sweepTxs)
    if (
      t.role === 'transfer' &&
      t.destinationKind === 'treasury' &&
      landedBy(t.status, t.blockNum, recordsHeight) &&
      t.status !== 'failed'
    )
      treasury.set(t.symbol, (treasury.get(t.symbol) ?? 0n) + t.valueBase);

  return {
    summary: {
      chain,
      hotWallet,
      addresses: new Set(readable.map((h) => key(h.address))).size,
      atHeight: atHeight ?? head,
      head,
      scannedHeight,
    },
    lines,
    treasury,
    floats,
    txFees,
  };
}

function toLine(
  chain: Chain,
  h: Holding,
  judged: ReturnType<typeof judgeHolding>,
  decimals: number,
): HoldingLine {
  const fmt = (v: bigint) => formatAmount(v, decimals);
  return {
    chain,
    address: h.address,
    role: h.role,
    symbol: h.symbol,
    merchantId: h.merchantId,
    orderId: h.orderId,
    status: judged.status,
    expected: fmt(judged.expectedBase),
    actual: fmt(judged.actualBase),
    difference: fmt(judged.differenceBase),
    ...(judged.floatBase === undefined
      ? {}
      : {
          float: fmt(judged.floatBase),
          previousFloat: judged.previousFloatBase == null ? null : fmt(judged.previousFloatBase),
        }),
    ...(h.movements.length > MAX_RECORDS ? { recordsOmitted: h.movements.length - MAX_RECORDS } : {}),
    records: h.movements.slice(-MAX_RECORDS).map((m) => ({
      kind: m.kind,
      txHash: m.txHash,
      orderId: m.orderId,
      amount: fmt(m.amountBase),
      ...(m.inFlight ? { inFlight: true as const } : {}),
      ...(m.feeUnknown ? { feeUnknown: true as const } : {}),
    })),
  };
}
