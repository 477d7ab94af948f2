import { bootstrap } from '../bootstrap.ts';
import { adjustLedger, ledgerBalances, ledgerEntries } from '../services/manage-ledger.ts';
import { printJson, printTable, UsageError } from './output.ts';

type Flags = Record<string, string | boolean | undefined>;

const USAGE = `ledger balances [--merchant M] [--json]
  ledger entries --merchant M [--json]
  ledger adjust --merchant M --chain C --symbol S --amount ±X --reason TEXT`;

const text = (flags: Flags, name: string) =>
  typeof flags[name] === 'string' ? (flags[name] as string) : undefined;

/**
 * `kassa ledger …`: merchants' balances (available, frozen, total per chain and symbol), a
 * merchant's ledger entries oldest first, and the operator's top-ups and corrections (`adjust`,
 * with a required reason the entry keeps). `--json` prints one JSON document on stdout; logs go to
 * stderr.
 */
export async function ledgerCommand(args: string[], flags: Flags): Promise<void> {
  const [sub] = args;
  const merchant = text(flags, 'merchant');
  if (sub !== 'balances' && sub !== 'entries' && sub !== 'adjust') throw new UsageError(USAGE);
  if (sub === 'entries' && !merchant) throw new UsageError('ledger entries --merchant M [--json]');
  if (sub === 'adjust') {
    const missing = ['merchant', 'chain', 'symbol', 'amount', 'reason'].filter(
      (f) => !text(flags, f)?.trim(),
    );
    if (missing.length > 0)
      throw new UsageError(
        `ledger adjust needs ${missing.map((f) => `--${f}`).join(', ')} (a reason is required)\n  ${USAGE}`,
      );
  }
  const rt = await bootstrap({ configFile: flags.config as string | undefined, logTo: 2 });
  try {
    switch (sub) {
      case 'balances': {
        const rows = await ledgerBalances(rt, merchant ? { merchantId: merchant } : {});
        if (flags.json) printJson(rows);
        else printTable(rows.map((b) => ({ ...b })));
        return;
      }
      case 'entries': {
        const rows = await ledgerEntries(rt, merchant as string);
        if (flags.json) printJson(rows);
        else printTable(rows.map((e) => ({ ...e, orderId: e.orderId ?? '', reason: e.reason ?? '' })));
        return;
      }
      case 'adjust': {
        const balance = await adjustLedger(rt, {
          merchantId: merchant as string,
          chain: (text(flags, 'chain') as string).toUpperCase(),
          symbol: text(flags, 'symbol') as string,
          amount: text(flags, 'amount') as string,
          reason: text(flags, 'reason') as string,
        });
        if (flags.json) printJson(balance);
        else
          process.stdout.write(
            `${balance.merchantId} ${balance.chain} ${balance.symbol}: available ${balance.available}, frozen ${balance.frozen}, total ${balance.total}\n`,
          );
        return;
      }
    }
  } finally {
    await rt.close();
  }
}
