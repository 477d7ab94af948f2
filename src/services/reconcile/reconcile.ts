import type { BalanceRead, ChainAdapter } from '../../chains/port.ts';
import type { WalletFloat } from '../../db/store.ts';
import { type Chain, familyOf } from '../../domain/chains.ts';
import { formatAmount } from '../../domain/money.ts';
import { newId } from '../../lib/ids.ts';
import { type Deps, requireKeys } from '../deps.ts';
import { describeChainError, isNodeUnreachable } from '../describe-chain-error.ts';
import type { TokenRef } from '../payout-funding.ts';
import { listTokens } from '../resolve-token.ts';
import { expectedHoldings, type Holding, landedBy, transactionsNeedingFees } from './holdings.ts';
import { type HoldingStatus, judgeHolding } from './judge-holding.ts';
import { readBalances } from './read-balances.ts';

/** Records listed per difference at most (the newest). */
const MAX_RECORDS = 100;

/** Fee reads in flight at once (transactions whose record holds no fee, read once and cached when final). */
const FEE_READS_IN_FLIGHT = 8;

/** One address in one token: what the records say it holds, what the chain says, and the verdict. */
export interface HoldingLine {
  chain: Chain;
  address: string;
  role: 'deposit' | 'hot';
  symbol: string;
  merchantId: string | null;
  orderId: string | null;
  status: HoldingStatus;
  expected: string;
  actual: string;
  /** actual − expected (negative: missing). */
  difference: string;
  /** Hot wallet: what it holds beyond the records (funded from outside), and the float accepted before. */
  float?: string;
  previousFloat?: string | null;
  /** The records involved: each movement with its transaction, order and signed amount. */
  records: {
    kind: string;
    txHash: string;
    orderId: string | null;
    amount: string;
    inFlight?: true;
    feeUnknown?: true;
  }[];
  /** Earlier records left out of `records` (a hot wallet's history is long; the newest are kept). */
  recordsOmitted?: number;
}

/** One chain's token, all addresses together. */
export interface TokenSummary {
  chain: Chain;
  symbol: string;
  /** On the deposit addresses (chain) and what the records expect there. */
  onDeposits: string;
  expectedOnDeposits: string;
  /** On the hot wallet (chain). */
  onHotWallet: string;
  /** Swept to the operator's treasury address (records). */
  sweptToTreasury: string;
  /** What Kassa owes the merchants: their ledger balances, available + frozen. */
  owedToMerchants: string;
  /** onDeposits + onHotWallet + sweptToTreasury − owedToMerchants (negative: the funds do not cover the ledger). */
  cover: string;
  /** The sum of unexplained differences (negative: missing). */
  unexplained: string;
}

/** A merchant's ledger in one token against its collections' funds still on their deposit addresses. */
export interface MerchantSummary {
  merchantId: string;
  chain: Chain;
  symbol: string;
  available: string;
  frozen: string;
  /** On the deposit addresses of the merchant's collections (the rest was swept or paid out from the pool). */
  onDepositAddresses: string;
}

/** How one chain was read. */
export interface ChainSummary {
  chain: Chain;
  hotWallet: string;
  /** Addresses compared (deposit addresses and hot wallets). */
  addresses: number;
  /** The block the balances are as of (EVM: the scanner's checkpoint), or the head when read at the latest. */
  atHeight: number | null;
  head: number | null;
  scannedHeight: number | null;
  /** Why the chain could not be reconciled (nothing about it is known then). */
  error?: string;
}

/** The outcome of one reconciliation. */
export interface ReconcileReport {
  id: string;
  startedAt: number;
  finishedAt: number;
  /** True when every chain was read and no difference is unexplained. */
  ok: boolean;
  addresses: number;
  unexplained: number;
  inFlight: number;
  unscanned: number;
  chains: ChainSummary[];
  tokens: TokenSummary[];
  merchants: MerchantSummary[];
  /** Every holding not `ok`. */
  differences: HoldingLine[];
  /** Every holding (with `all`). */
  holdings?: HoldingLine[];
}

export interface ReconcileOptions {
  /** One chain only (default: every enabled chain with an adapter). */
  chain?: Chain;
  /** Take each hot wallet's float as it is now, even where it shrank (after the operator withdrew on purpose). */
  accept?: boolean;
  /** Put every holding in the report, not only the differences. */
  all?: boolean;
}

/** A line with its amounts in base units, for the sums. */
interface JudgedLine {
  line: HoldingLine;
  decimals: number;
  actualBase: bigint;
  expectedBase: bigint;
  differenceBase: bigint;
}

interface ChainOutcome {
  summary: ChainSummary;
  lines: JudgedLine[];
  treasury: Map<string, bigint>;
  floats: Omit<WalletFloat, 'updatedAt'>[];
  txFees: { chain: string; txHash: string; feeBase: bigint }[];
}

/**
 * Reads every address Kassa owns on each chain (deposit addresses and hot wallets, every configured
 * token) and compares the balance with what the records say it holds: deposits credited or
 * unattributed in, sweeps and payouts out, fees paid, gas top-ups in (README, "Reconciliation").
 * EVM balances are read in batches as of the scanner's checkpoint block; other chains at the
 * latest, a few at a time. Stores the run (and the hot wallets' floats and fees it learnt) in one
 * write. A chain that cannot be read is reported with the reason and makes the run not ok.
 */
export async function reconcile(
  deps: Pick<Deps, 'db' | 'config' | 'keys' | 'clock' | 'logger'>,
  adapters: ReadonlyMap<Chain, ChainAdapter>,
  options: ReconcileOptions = {},
): Promise<ReconcileReport> {
  const keys = requireKeys(deps as Deps);
  const startedAt = deps.clock.now();
  const tokens = await listTokens(deps);
  const chains = [...adapters.keys()].filter((c) => options.chain === undefined || c === options.chain);
  const outcomes: ChainOutcome[] = [];
  for (const chain of chains) {
    const adapter = adapters.get(chain) as ChainAdapter;
    const hotWallet = keys.hotWallet(chain).address;
    try {
      outcomes.push(
        await reconcileChain(
          deps,
          adapter,
          hotWallet,
          tokens.filter((t) => t.chain === chain),
          options,
        ),
      );
    } catch (error) {
      outcomes.push({
        summary: {
          chain,
          hotWallet,
          addresses: 0,
          atHeight: null,
          head: null,
          scannedHeight: null,
          error: describeChainError(deps.config, chain, error),
        },
        lines: [],
        treasury: new Map(),
        floats: [],
        txFees: [],
      });
    }
  }

  const judged = outcomes.flatMap((o) => o.lines);
  const lines = judged.map((j) => j.line);
  const ledger = await deps.db.listBalances();
  const tokenSummaries: TokenSummary[] = [];
  for (const o of outcomes) {
    if (o.summary.error) continue;
    for (const t of tokens.filter((x) => x.chain === o.summary.chain)) {
      const fmt = (v: bigint) => formatAmount(v, t.decimals);
      const mine = judged.filter((j) => j.line.chain === t.chain && j.line.symbol === t.symbol);
      const sum = (js: JudgedLine[], pick: (j: JudgedLine) => bigint) => js.reduce((s, j) => s + pick(j), 0n);
      const deposits = mine.filter((j) => j.line.role === 'deposit');
      const onDeposits = sum(deposits, (j) => j.actualBase);
      const onHot = sum(
        mine.filter((j) => j.line.role === 'hot'),
        (j) => j.actualBase,
      );
      const treasury = o.treasury.get(t.symbol) ?? 0n;
      const owed = ledger
        .filter((b) => b.chain === t.chain && b.symbol === t.symbol)
        .reduce((s, b) => s + b.available + b.frozen, 0n);
      tokenSummaries.push({
        chain: t.chain,
        symbol: t.symbol,
        onDeposits: fmt(onDeposits),
        expectedOnDeposits: fmt(sum(deposits, (j) => j.expectedBase)),
        onHotWallet: fmt(onHot),
        sweptToTreasury: fmt(treasury),
        owedToMerchants: fmt(owed),
        cover: fmt(onDeposits + onHot + treasury - owed),
        unexplained: fmt(
          sum(
            mine.filter((j) => j.line.status === 'unexplained'),
            (j) => j.differenceBase,
          ),
        ),
      });
    }
  }

  const reconciled = new Set(outcomes.filter((o) => !o.summary.error).map((o) => o.summary.chain as string));
  const merchants: MerchantSummary[] = ledger
    .filter((b) => reconciled.has(b.chain))
    .map((b) => ({
      merchantId: b.merchantId,
      chain: b.chain as Chain,
      symbol: b.symbol,
      available: formatAmount(b.available, b.decimals),
      frozen: formatAmount(b.frozen, b.decimals),
      onDepositAddresses: formatAmount(
        judged
          .filter(
            (j) =>
              j.line.merchantId === b.merchantId && j.line.chain === b.chain && j.line.symbol === b.symbol,
          )
          .reduce((s, j) => s + j.actualBase, 0n),
        b.decimals,
      ),
    }));

  const count = (status: HoldingStatus) => lines.filter((l) => l.status === status).length;
  const unexplained = count('unexplained');
  const report: ReconcileReport = {
    id: newId('rec'),
    startedAt,
    finishedAt: deps.clock.now(),
    ok: unexplained === 0 && outcomes.every((o) => !o.summary.error),
    addresses: outcomes.reduce((s, o) => s + o.summary.addresses, 0),
    unexplained,
    inFlight: count('in_flight'),
    unscanned: count('unscanned'),
    chains: outcomes.map((o) => o.summary),
    tokens: tokenSummaries,
    merchants,
    differences: lines.filter((l) => l.status !== 'ok'),
  };
  await deps.db.recordReconciliation({
    run: {
      id: report.id,
      startedAt,
      finishedAt: report.finishedAt,
      chains,
      addresses: report.addresses,
      unexplained,
      report: JSON.stringify(report),
    },
    floats: outcomes.flatMap((o) => o.floats),
    txFees: outcomes.flatMap((o) => o.txFees),
  });
  return options.all ? { ...report, holdings: lines } : report;
}

async function reconcileChain(
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
