import { bootstrap } from '../bootstrap.ts';
import { type Chain, isChain } from '../domain/chains.ts';
import { formatAmount } from '../domain/money.ts';
import { WALLET_LEASE_MS } from '../services/hot-wallet-lease.ts';
import { planSweeps } from '../services/plan-sweeps.ts';
import { HOT_WALLET_BUSY, runSweeps } from '../services/run-sweeps.ts';
import { isSweepStatus, listSweepViews, operatorCostViews } from '../services/sweep-reports.ts';
import { nativeDecimals, sweepSettings } from '../services/sweep-settings.ts';
import { commandLogger, printJson, printTable, UsageError } from './output.ts';

type Flags = Record<string, string | boolean | undefined>;

const USAGE = `sweeps plan [--chain C] [--json] | run [--chain C] | list [--status S] [--chain C] [--json] | costs [--json]`;

const text = (flags: Flags, name: string) =>
  typeof flags[name] === 'string' ? (flags[name] as string) : undefined;

/**
 * `kassa sweeps …`: moving deposits to the hot wallet or a treasury (README, "Sweeping"). `plan`
 * prices what a pass would sweep now, with fees, without doing it; `run` does one pass now on each
 * chain where sweeping is on (it waits for nothing: a top-up that must become final is followed by
 * the worker or the next `run`); `list` shows sweeps and their transactions; `costs` sums what the
 * operator paid, per chain and kind. Logs go to stderr.
 */
export async function sweepsCommand(args: string[], flags: Flags): Promise<void> {
  const [sub] = args;
  if (!sub || !['plan', 'run', 'list', 'costs'].includes(sub)) throw new UsageError(USAGE);
  const chainFlag = text(flags, 'chain')?.toUpperCase();
  if (chainFlag !== undefined && !isChain(chainFlag)) throw new UsageError(`Unknown chain ${chainFlag}.`);
  const status = text(flags, 'status')?.toLowerCase();
  if (status !== undefined && !isSweepStatus(status))
    throw new UsageError('--status is one of planned, gas_sent, gas_final, signed, broadcast, final, failed');
  const onChain = sub === 'plan' || sub === 'run';
  const rt = await bootstrap({
    configFile: flags.config as string | undefined,
    need: onChain ? { mnemonic: true } : {},
    chains: onChain,
    logTo: 2,
    logger: commandLogger(flags),
  });
  try {
    const chains = [...rt.adapters.keys()].filter(
      (c) => chainFlag === undefined || c === chainFlag,
    ) as Chain[];
    switch (sub) {
      case 'plan': {
        const out = [];
        for (const chain of chains) {
          const settings = sweepSettings(rt.config, chain, rt.keys);
          if (!settings.active) {
            process.stderr.write(`${chain}: sweeping is off (${settings.off})\n`);
            continue;
          }
          const adapter = rt.adapters.get(chain);
          if (!adapter) continue;
          await adapter.connect();
          for (const item of await planSweeps(rt, adapter, settings)) {
            out.push({
              chain,
              address: item.address,
              symbol: item.token.symbol,
              unswept: formatAmount(item.unsweptBase, item.token.decimals),
              moves: item.quote ? formatAmount(item.quote.amountBase, item.token.decimals) : null,
              fee: item.quote ? formatAmount(item.quote.feeBase, nativeDecimals(chain)) : null,
              topUp: item.quote ? formatAmount(item.quote.topUpBase, nativeDecimals(chain)) : null,
              mode: item.quote?.mode ?? null,
              verdict: item.verdict,
              note: item.note,
              destination: settings.destination,
            });
          }
        }
        if (flags.json) printJson(out);
        else if (out.length === 0) process.stdout.write('nothing to sweep\n');
        else printTable(out.map(({ destination: _d, ...rest }) => rest));
        return;
      }
      case 'run': {
        const results = [];
        for (const chain of chains) {
          const adapter = rt.adapters.get(chain);
          if (!adapter) continue;
          if (!sweepSettings(rt.config, chain, rt.keys).active) continue;
          await adapter.connect();
          // the worker holds the hot wallet for a moment on every payout tick (or, after a crash, until its
          // lease runs out): wait for it rather than give up
          const until = Date.now() + WALLET_LEASE_MS + 5_000;
          const pass = () =>
            runSweeps(rt, adapter, new AbortController().signal, { holder: `cli:${process.pid}` });
          let result = await pass();
          while (result.skipped === HOT_WALLET_BUSY && Date.now() < until) {
            await new Promise((r) => setTimeout(r, 500));
            result = await pass();
          }
          results.push(result);
        }
        if (flags.json) printJson(results);
        else if (results.length === 0)
          process.stdout.write('sweeping is off on every chain (set chains.<CHAIN>.sweep.destination)\n');
        else
          for (const r of results)
            process.stdout.write(
              r.skipped
                ? `${r.chain}: skipped (${r.skipped})\n`
                : `${r.chain}: ${r.started} started, ${r.final} final, ${r.failed} failed, ${r.open} under way\n`,
            );
        if (results.some((r) => r.skipped)) process.exitCode = 1;
        return;
      }
      case 'list': {
        const rows = await listSweepViews(rt, { status: status as never, chain: chainFlag });
        if (flags.json) printJson(rows);
        else if (rows.length === 0) process.stdout.write('no sweeps\n');
        else
          printTable(
            rows.map((s) => ({
              id: s.id,
              chain: s.chain,
              address: s.address,
              amount: `${s.amount} ${s.symbol}`,
              to: s.destinationKind,
              status: s.held ? `${s.status} (held)` : s.status,
              txs: s.transactions.map((t) => `${t.role}:${t.status}`).join(' '),
              error: s.error ?? '',
            })),
          );
        return;
      }
      case 'costs': {
        const rows = await operatorCostViews(rt);
        if (flags.json) printJson(rows);
        else if (rows.length === 0) process.stdout.write('no costs recorded\n');
        else
          printTable(
            rows.map((c) => ({
              chain: c.chain,
              kind: c.kind,
              amount: `${c.amount} ${c.symbol}`,
              transactions: c.transactions,
            })),
          );
        return;
      }
    }
  } finally {
    await rt.close();
  }
}
