import { readFileSync } from 'node:fs';
import { bootstrap } from '../bootstrap.ts';
import { COMPAT_MODES, type CompatMode, isCompatMode } from '../domain/compat-mode.ts';
import {
  createMerchant,
  describeMerchants,
  disableMerchant,
  type ImportedSecrets,
  rotateMerchantToken,
  setMerchantCallback,
  setMerchantCompat,
} from '../services/manage-merchants.ts';
import { commandLogger, printJson, printTable, UsageError } from './output.ts';

function compatOf(value: unknown, usage: string): CompatMode {
  const mode = String(value ?? '').toLowerCase();
  if (!isCompatMode(mode)) throw new UsageError(`${usage}: the mode is one of ${COMPAT_MODES.join(', ')}`);
  return mode;
}

/**
 * The apiKey and apiSecret a merchant had at XPay Labs, from a JSON file (`-`: standard input), never
 * from the command line (where `ps` and shell history would keep them): `{"token": …,
 * "webhookSecret": …}`, or XPay's own names `{"apiKey": …, "apiSecret": …}`.
 */
function readSecrets(path: string): ImportedSecrets {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(readFileSync(path === '-' ? 0 : path, 'utf8'));
  } catch (error) {
    throw new UsageError(`--import-secrets ${path}: not a readable JSON file (${(error as Error).message})`);
  }
  const token = parsed.token ?? parsed.apiKey;
  const webhookSecret = parsed.webhookSecret ?? parsed.apiSecret;
  if (typeof token !== 'string' || typeof webhookSecret !== 'string')
    throw new UsageError(
      `--import-secrets ${path}: expected {"token": "…", "webhookSecret": "…"} (XPay's apiKey and apiSecret)`,
    );
  return { token, webhookSecret };
}

/** `kassa merchant create|list|rotate-token|set-callback|set-compat|disable`. */
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
        const compat =
          flags.compat === undefined ? 'none' : compatOf(flags.compat, 'merchant create --compat');
        const importFrom = flags['import-secrets'];
        if (importFrom !== undefined && typeof importFrom !== 'string')
          throw new UsageError('merchant create --import-secrets needs a file (or - for standard input)');
        const created = await createMerchant(rt, {
          kind,
          name: (flags.name as string | undefined) ?? null,
          callbackUrl: (flags['callback-url'] as string | undefined) ?? null,
          compat,
          ...(importFrom === undefined ? {} : { importSecrets: readSecrets(importFrom) }),
        });
        // `compat` only where it says something: the interface's merchants print what they always did
        const { compat: mode, ...shown } = created;
        process.stdout.write(`${JSON.stringify(mode === 'none' ? shown : { ...shown, compat: mode })}\n`);
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
      case 'set-compat': {
        const usage = `merchant set-compat MERCHANT_ID ${COMPAT_MODES.join('|')}`;
        if (!id || args[2] === undefined) throw new UsageError(usage);
        const changed = await setMerchantCompat(rt, id, compatOf(args[2], usage));
        process.stderr.write(
          `compatibility mode of ${id} set to ${changed.compat} (was ${changed.previous})\n`,
        );
        if (changed.previous === 'xpay' && changed.compat === 'none')
          process.stderr.write(
            `its token travelled in X-API-TOKEN headers while in XPay mode; now that it signs requests again, rotate it: kassa merchant rotate-token ${id}\n`,
          );
        return;
      }
      case 'disable':
        if (!id) throw new UsageError('merchant disable MERCHANT_ID');
        await disableMerchant(rt, id);
        process.stderr.write(`merchant ${id} disabled\n`);
        return;
      default:
        throw new UsageError('merchant create|list|rotate-token|set-callback|set-compat|disable');
    }
  } finally {
    await rt.close();
  }
}
