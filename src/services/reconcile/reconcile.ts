import type { ChainAdapter } from '../../chains/port.ts';
import type { Chain } from '../../domain/chains.ts';
import { formatAmount } from '../../domain/money.ts';
import { newId } from '../../lib/ids.ts';
import { type Deps, requireKeys } from '../deps.ts';
import { describeChainError } from '../describe-chain-error.ts';
import { listTokens } from '../resolve-token.ts';
import type { HoldingStatus } from './judge-holding.ts';
import { type ChainOutcome, type JudgedLine, reconcileChain } from './reconcile-chain.ts';
import type { MerchantSummary, ReconcileOptions, ReconcileReport, TokenSummary } from './report.ts';

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
