import { bootstrap } from '../bootstrap.ts';
import { addToken, supportedSymbols } from '../services/manage-tokens.ts';
import { commandLogger, printJson, printTable, UsageError } from './output.ts';

/** `kassa token add --chain C --symbol S --contract A --decimals D` and `kassa token list`. */
export async function tokenCommand(
  args: string[],
  flags: Record<string, string | boolean | undefined>,
): Promise<void> {
  const rt = await bootstrap({
    configFile: flags.config as string | undefined,
    logTo: 2,
    logger: commandLogger(flags),
  });
  try {
    if (args[0] === 'add') {
      const { chain, symbol, contract, decimals } = flags;
      if (
        typeof chain !== 'string' ||
        typeof symbol !== 'string' ||
        typeof contract !== 'string' ||
        typeof decimals !== 'string'
      ) {
        throw new UsageError('token add --chain CHAIN --symbol SYMBOL --contract ADDRESS --decimals N');
      }
      if (!/^\d+$/.test(decimals)) throw new UsageError('--decimals must be a whole number');
      printJson(
        await addToken(rt, { chain: chain.toUpperCase(), symbol, contract, decimals: Number(decimals) }),
      );
      return;
    }
    if (args[0] === 'list') {
      const list = await supportedSymbols(rt, { chain: flags.chain as string | undefined });
      if (flags.json) printJson(list);
      else printTable(list);
      return;
    }
    throw new UsageError('token add|list');
  } finally {
    await rt.close();
  }
}
