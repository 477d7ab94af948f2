import { bootstrap } from '../bootstrap.ts';
import {
  createMerchant,
  describeMerchants,
  disableMerchant,
  rotateMerchantToken,
  setMerchantCallback,
} from '../services/manage-merchants.ts';
import { commandLogger, printJson, printTable, UsageError } from './output.ts';

/** `kassa merchant create|list|rotate-token|set-callback|disable`. */
export async function merchantCommand(
  args: string[],
  flags: Record<string, string | boolean | undefined>,
): Promise<void> {
  const [sub, id] = args;
  const rt = await bootstrap({
    configFile: flags.config as string | undefined,
    need: { masterKey: true },
    logTo: 2,
    logger: commandLogger(flags),
  });
  try {
    switch (sub) {
      case 'create': {
        const kind = String(flags.kind ?? '').toUpperCase();
        if (kind !== 'V2' && kind !== 'V3')
          throw new UsageError('merchant create needs --kind V2 or --kind V3');
        const created = await createMerchant(rt, {
          kind,
          name: (flags.name as string | undefined) ?? null,
          callbackUrl: (flags['callback-url'] as string | undefined) ?? null,
        });
        process.stdout.write(`${JSON.stringify(created)}\n`);
        return;
      }
      case 'list': {
        const list = await describeMerchants(rt);
        if (flags.json) printJson(list);
        else printTable(list);
        return;
      }
      case 'rotate-token':
        if (!id) throw new UsageError('merchant rotate-token MERCHANT_ID');
        process.stdout.write(`${JSON.stringify(await rotateMerchantToken(rt, id))}\n`);
        return;
      case 'set-callback': {
        if (!id) throw new UsageError('merchant set-callback MERCHANT_ID (--url URL | --clear)');
        const url = flags.clear ? null : ((flags.url ?? flags['callback-url']) as string | undefined);
        if (url === undefined) throw new UsageError('merchant set-callback needs --url URL or --clear');
        await setMerchantCallback(rt, id, url);
        process.stderr.write(`callback of ${id} ${url ? `set to ${url}` : 'cleared'}\n`);
        return;
      }
      case 'disable':
        if (!id) throw new UsageError('merchant disable MERCHANT_ID');
        await disableMerchant(rt, id);
        process.stderr.write(`merchant ${id} disabled\n`);
        return;
      default:
        throw new UsageError('merchant create|list|rotate-token|set-callback|disable');
    }
  } finally {
    rt.close();
  }
}
