import { bootstrap } from '../bootstrap.ts';
import { listUnattributedDeposits } from '../services/list-deposits.ts';
import { commandLogger, printJson, printTable, UsageError } from './output.ts';

/** `kassa deposits unattributed [--chain C] [--json]`: payments no order took, for the operator to settle by hand. */
export async function depositsCommand(
  args: string[],
  flags: Record<string, string | boolean | undefined>,
): Promise<void> {
  if (args[0] !== 'unattributed') throw new UsageError('deposits unattributed [--chain C] [--json]');
  const rt = await bootstrap({
    configFile: flags.config as string | undefined,
    logTo: 2,
    logger: commandLogger(flags),
  });
  try {
    const list = await listUnattributedDeposits(rt, (flags.chain as string | undefined)?.toUpperCase());
    if (flags.json) printJson(list);
    else
      printTable(
        list.map(({ chain, symbol, amount, txid, to, reason, seenAt }) => ({
          chain,
          symbol,
          amount,
          txid,
          to,
          reason,
          seenAt,
        })),
      );
  } finally {
    await rt.close();
  }
}
