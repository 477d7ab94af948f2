import { isChainError } from '../../src/chains/errors.ts';
import type { ChainHealth } from '../../src/chains/health.ts';
import type { ChainAdapter } from '../../src/chains/port.ts';
import { activeChain } from '../../src/config/active-chain.ts';
import type { Chain } from '../../src/domain/chains.ts';
import type { Deps } from '../../src/services/deps.ts';
import { withHotWallet } from '../../src/services/hot-wallet-lease.ts';
import { listTokens } from '../../src/services/resolve-token.ts';
import { runSweeps } from '../../src/services/run-sweeps.ts';
import { scanChain } from '../../src/services/scan-chain.ts';
import { sendPayouts } from '../../src/services/send-payouts.ts';
import { sweepSettings } from '../../src/services/sweep-settings.ts';
import { trackPayouts } from '../../src/services/track-payouts.ts';
import type { JobGroup } from '../main.ts';

/** The worker's name on a hot-wallet lease: a restarted worker (SIGKILL) takes its lease back at once. */
const WORKER_HOLDER = 'worker';

/** Runs the functions given to it one after another: payouts and sweeps never sign from one wallet at once. */
function serial(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (fn) => {
    const run = tail.then(fn, fn);
    tail = run.catch(() => undefined);
    return run;
  };
}

/**
 * Per enabled chain: a scan job (every poll interval: connect if needed, scan to the head, settle,
 * follow payouts), a payout job (send queued payouts) and, where `chains.<CHAIN>.sweep` is on, a sweep
 * job on its schedule (new sweeps) with a follower at the payout cadence (sweeps under way). A chain whose RPC is down only makes its
 * own jobs log and retry; a chain whose RPC serves another network is disabled with a clear log
 * line. Jobs of one chain never overlap (protect), so each chain has a single writer.
 */
export function chainJobs(adapters: ReadonlyMap<Chain, ChainAdapter>, health: ChainHealth): JobGroup {
  return (deps: Deps, scheduler) => {
    for (const [chain, adapter] of adapters) {
      const status = health.get(chain);
      const log = deps.logger.child({ chain });
      const ensureConnected = async (): Promise<boolean> => {
        if (status.state === 'disabled') return false;
        if (status.state === 'ready') return true;
        try {
          await adapter.connect();
          status.state = 'ready';
          status.lastError = null;
          log.info('chain connected');
          return true;
        } catch (error) {
          status.lastError = (error as Error).message;
          if (isChainError(error, 'wrong_network')) {
            status.state = 'disabled';
            log.error({ reason: status.lastError }, 'chain disabled');
          } else {
            log.warn({ error: status.lastError }, 'chain not reachable yet; retrying');
          }
          return false;
        }
      };
      const settings = activeChain(deps.config, chain);
      scheduler.every(`scan:${chain}`, settings.pollIntervalMs, async (signal) => {
        if (!(await ensureConnected())) return { connected: false };
        try {
          const tokens = (await listTokens(deps)).filter((t) => t.chain === chain);
          const summary = await scanChain(deps, adapter, tokens, signal);
          Object.assign(status, {
            head: summary.head,
            final: summary.final,
            scannedTo: summary.scannedTo,
            lastScanAt: Date.now(),
            lastError: null,
          });
          const payouts = await trackPayouts(deps, adapter, summary);
          return { ...summary, ...payouts };
        } catch (error) {
          status.lastError = (error as Error).message;
          throw error;
        }
      });
      const wallet = serial();
      scheduler.every(`payouts:${chain}`, deps.config.worker.payoutIntervalMs, async (signal) => {
        if (!(await ensureConnected()) || !deps.keys) return { connected: false };
        // a `kassa sweeps run` signing from the same hot wallet right now: the payouts wait for it
        const sent = await wallet(() =>
          withHotWallet(deps, { chain, holder: WORKER_HOLDER }, () => sendPayouts(deps, adapter, signal)),
        );
        return sent ?? { waiting: 'hot wallet lease' };
      });
      const sweep = sweepSettings(deps.config, chain, deps.keys);
      if (sweep.active) {
        const pass = (planNew: boolean) => async (signal: AbortSignal) => {
          if (!(await ensureConnected())) return { connected: false };
          return wallet(() => runSweeps(deps, adapter, signal, { holder: WORKER_HOLDER, planNew }));
        };
        // new sweeps on the schedule; sweeps under way (waiting for a top-up to be final) at the payout cadence
        scheduler.cron(`sweeps:${chain}`, sweep.schedule, pass(true));
        scheduler.every(`sweeps-follow:${chain}`, deps.config.worker.payoutIntervalMs, pass(false));
        log.info({ schedule: sweep.schedule, destination: sweep.destination }, 'sweeping on');
      }
    }
  };
}
