import { isChainError } from '../../src/chains/errors.ts';
import type { ChainHealth } from '../../src/chains/health.ts';
import type { ChainAdapter } from '../../src/chains/port.ts';
import { activeChain } from '../../src/config/active-chain.ts';
import type { Chain } from '../../src/domain/chains.ts';
import type { Deps } from '../../src/services/deps.ts';
import { listTokens } from '../../src/services/resolve-token.ts';
import { scanChain } from '../../src/services/scan-chain.ts';
import { sendPayouts } from '../../src/services/send-payouts.ts';
import { trackPayouts } from '../../src/services/track-payouts.ts';
import type { JobGroup } from '../main.ts';

/**
 * Per enabled chain: a scan job (every poll interval: connect if needed, scan to the head, settle,
 * follow payouts) and a payout job (send queued payouts). A chain whose RPC is down only makes its
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
      scheduler.every(`payouts:${chain}`, deps.config.worker.payoutIntervalMs, async (signal) => {
        if (!(await ensureConnected()) || !deps.keys) return { connected: false };
        return sendPayouts(deps, adapter, signal);
      });
    }
  };
}
