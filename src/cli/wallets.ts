import { bootstrap } from '../bootstrap.ts';
import { hotWalletReport } from '../services/hot-wallets.ts';
import { commandLogger, printJson } from './output.ts';

/**
 * `kassa wallets [--json] [--verbose]`: each enabled chain's hot wallet and its balances (fund
 * these for payouts) on stdout; each chain that could not be read gets one line on stderr saying
 * why (`ETH: node unreachable at … (connection refused)`) and the exit code is 1. Retry logs only
 * with `--verbose` or a log level.
 */
export async function walletsCommand(flags: Record<string, string | boolean | undefined>): Promise<void> {
  const rt = await bootstrap({
    configFile: flags.config as string | undefined,
    need: { mnemonic: true },
    chains: true,
    logTo: 2,
    logger: commandLogger(flags),
  });
  try {
    const report = await hotWalletReport(rt, rt.adapters);
    if (flags.json) {
      printJson(report.map(({ chain, address, balances, error }) => ({ chain, address, balances, error })));
    } else {
      if (report.length === 0) process.stdout.write('(no chain enabled: set KASSA_RPC_<CHAIN>)\n');
      for (const w of report) {
        const balances = Object.entries(w.balances)
          .map(([symbol, value]) => `${value ?? '?'} ${symbol}`)
          .join(', ');
        process.stdout.write(`${w.chain.padEnd(13)} ${w.address}  ${balances}\n`);
      }
    }
    const problems = report.flatMap((w) => (w.error ? [w.error] : []));
    for (const line of problems) process.stderr.write(`${line}\n`);
    if (problems.length > 0) process.exitCode = 1;
  } finally {
    await rt.close();
  }
}
