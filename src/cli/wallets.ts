import { bootstrap } from '../bootstrap.ts';
import { hotWalletReport } from '../services/hot-wallets.ts';
import { printJson } from './output.ts';

/** `kassa wallets [--json]`: each enabled chain's hot wallet and its balances (fund these for payouts). */
export async function walletsCommand(flags: Record<string, string | boolean | undefined>): Promise<void> {
  const rt = await bootstrap({
    configFile: flags.config as string | undefined,
    need: { mnemonic: true },
    chains: true,
    logTo: 2,
  });
  try {
    const report = await hotWalletReport(rt, rt.adapters);
    if (flags.json) {
      printJson(report.map(({ chain, address, balances }) => ({ chain, address, balances })));
      return;
    }
    for (const w of report) {
      const balances = Object.entries(w.balances)
        .map(([symbol, value]) => `${value ?? '?'} ${symbol}`)
        .join(', ');
      process.stdout.write(
        `${w.chain.padEnd(13)} ${w.address}  ${balances}${w.error ? `  (unreachable: ${w.error})` : ''}\n`,
      );
    }
  } finally {
    rt.close();
  }
}
