import type { ChainAdapter, TokenSpec } from '../chains/port.ts';
import type { Sweep } from '../db/store.ts';
import { newId } from '../lib/ids.ts';
import { advanceSweep, type SweepRun } from './advance-sweep.ts';
import { type Deps, requireKeys } from './deps.ts';
import { withHotWallet } from './hot-wallet-lease.ts';
import { planSweeps } from './plan-sweeps.ts';
import { listTokens } from './resolve-token.ts';
import { nativeDecimals, sweepSettings } from './sweep-settings.ts';

const NATIVE_SYMBOL: Record<string, string> = {
  ETH: 'ETH',
  BSC: 'BNB',
  POLYGON: 'POL',
  AVAX_C_CHAIN: 'AVAX',
  TRON: 'TRX',
  SUI: 'SUI',
};

/** Why a pass did nothing: another process holds the chain's hot-wallet lease. */
export const HOT_WALLET_BUSY = 'another process is signing from the hot wallet';

/** What one pass did. */
export interface SweepPassSummary {
  chain: string;
  /** Why nothing was done, when nothing was. */
  skipped?: string;
  started: number;
  advanced: number;
  final: number;
  failed: number;
  /** Open sweeps left waiting for finality or for the next pass. */
  open: number;
}

/**
 * One sweeping pass over a chain (`kassa sweeps run`, and the worker on `chains.<CHAIN>.sweep.schedule`):
 * holds the chain's hot-wallet lease (so payouts and sweeps never sign from it at once, across
 * processes), moves every open sweep on as far as it goes now (a crash resumes from what was
 * stored), then plans new sweeps from the addresses worth sweeping (at most `batchSize` open at once,
 * one per address) and starts them. A sweep that throws is logged and left for the next pass.
 */
export async function runSweeps(
  deps: Pick<Deps, 'db' | 'clock' | 'logger' | 'keys' | 'config'>,
  adapter: ChainAdapter,
  signal: AbortSignal,
  options: { holder: string; planNew?: boolean },
): Promise<SweepPassSummary> {
  const chain = adapter.chain;
  const summary: SweepPassSummary = { chain, started: 0, advanced: 0, final: 0, failed: 0, open: 0 };
  const settings = sweepSettings(deps.config, chain, deps.keys);
  if (!settings.active) return { ...summary, skipped: settings.off ?? 'off' };
  const log = deps.logger.child({ chain, job: 'sweeps' });
  // the follower runs often: with nothing under way it costs one read, no lease, no node request
  if (options.planNew === false && (await deps.db.openSweeps(chain)).length === 0) return summary;
  const done = await withHotWallet(deps, { chain, holder: options.holder }, async (renew) => {
    const nativeToken = (await listTokens(deps)).find((t) => t.chain === chain && t.contract === null);
    const native: TokenSpec = nativeToken
      ? { symbol: nativeToken.symbol, contract: null, decimals: nativeToken.decimals }
      : { symbol: NATIVE_SYMBOL[chain] ?? chain, contract: null, decimals: nativeDecimals(chain) };
    const run: SweepRun = {
      deps,
      adapter,
      settings,
      hot: requireKeys(deps as Deps).hotWallet(chain),
      native,
      heads: await adapter.heads(),
      log,
    };
    const tally = (s: Sweep) => {
      if (s.status === 'final') summary.final++;
      else if (s.status === 'failed') summary.failed++;
      else summary.open++;
    };
    const advance = async (s: Sweep) => {
      await renew();
      try {
        const after = await advanceSweep(run, s);
        if (after.status !== s.status) summary.advanced++;
        tally(after);
      } catch (error) {
        summary.open++;
        const tries = s.tries + 1;
        await deps.db
          .recordSweepStep({
            step: {
              id: s.id,
              from: s.status,
              to: s.status,
              error: (error as Error).message,
              tries,
              nextTryAt: deps.clock.now() + Math.min(60, 2 ** Math.min(tries, 6)) * 60_000,
            },
            now: deps.clock.now(),
          })
          .catch(() => undefined);
        log.warn(
          { sweepId: s.id, address: s.address, error: (error as Error).message },
          'sweep step failed; retried later',
        );
      }
    };
    const open = await deps.db.openSweeps(chain);
    const now = deps.clock.now();
    for (const s of open) {
      if (signal.aborted) break;
      if (s.nextTryAt > now) {
        summary.open++;
        continue;
      }
      await advance(s);
    }
    if (signal.aborted || options.planNew === false) return summary;
    const room = settings.batchSize - open.length;
    if (room <= 0) return summary;
    const plan = await planSweeps(deps, adapter, settings);
    const taken = new Set(open.map((s) => s.address));
    for (const item of plan) {
      if (summary.started >= room || signal.aborted) break;
      if (item.verdict !== 'sweep' || !item.quote || taken.has(item.address)) continue;
      taken.add(item.address); // one sweep per address at a time: they share its gas
      const created = deps.clock.now();
      const sweep = await deps.db.insertSweep({
        id: newId('swp'),
        chain,
        address: item.address,
        depositIndex: item.depositIndex,
        destination: settings.destination as string,
        destinationKind: settings.destinationKind,
        symbol: item.token.symbol,
        tokenContract: item.token.contract,
        decimals: item.token.decimals,
        feeMode: item.quote.mode,
        amountBase: item.quote.amountBase.toString(),
        feeEstimateBase: item.quote.feeBase.toString(),
        status: 'planned',
        createdAt: created,
      });
      summary.started++;
      await advance(sweep);
    }
    return summary;
  });
  return done ?? { ...summary, skipped: HOT_WALLET_BUSY };
}
