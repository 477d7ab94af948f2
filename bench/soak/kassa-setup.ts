import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bootstrap } from '../../src/bootstrap.ts';
import { silentLogger } from '../../src/lib/logger.ts';
import { adjustLedger } from '../../src/services/manage-ledger.ts';
import { createMerchant, type MerchantCreated } from '../../src/services/manage-merchants.ts';
import { MNEMONIC, type Token } from './chains.ts';

/**
 * Kassa's side of the soak before it runs: its configuration file (fast polls, a short collection
 * TTL, quick webhook retries, limits out of the way), its environment, and the merchants with their
 * ledgers funded for payouts.
 */

const MASTER_KEY = '22'.repeat(32);
/** How long a collection may be paid (seconds). */
export const TTL_SECONDS = 60;
/** What each merchant's ledger is funded with per token, in whole units (`kassa ledger adjust`). */
export const FUNDING = '1000000';

/** Writes Kassa's configuration for `chainsConfig` into `dir`; returns what starts a Kassa on it. */
export function writeKassaSetup(input: { dir: string; port: number; chainsConfig: Record<string, unknown> }) {
  const { dir, port } = input;
  const configFile = join(dir, 'kassa.json');
  const config = input.chainsConfig as { chains: Record<string, Record<string, unknown>> };
  for (const chain of ['ETH', 'TRON', 'SUI'])
    Object.assign(config.chains[chain] as object, { pollIntervalMs: 500 });
  Object.assign(config.chains.ETH as object, { confirmations: 3 });
  writeFileSync(
    configFile,
    JSON.stringify({
      ...config,
      baseUrl: `http://127.0.0.1:${port}`,
      orders: { collectionTtlSeconds: TTL_SECONDS, payoutTtlSeconds: 3600, handlingFee: '0.00' },
      webhooks: {
        timeoutMs: 2000,
        retryBaseMs: 500,
        retryMaxDelayMs: 5000,
        retryForSeconds: 86_400,
        pollIntervalMs: 200,
        allowPrivateTargets: true,
      },
      worker: { expireIntervalMs: 1000, payoutIntervalMs: 500 },
      admin: { dashboard: 'off' },
      rateLimits: {
        createCollection: { limit: 10_000, windowSeconds: 1 },
        createPayout: { limit: 10_000, windowSeconds: 1 },
        status: { limit: 10_000, windowSeconds: 1 },
      },
    }),
  );
  const env = {
    PATH: process.env.PATH ?? '',
    KASSA_DB: join(dir, 'kassa.db'),
    KASSA_MNEMONIC: MNEMONIC,
    KASSA_MASTER_KEY: MASTER_KEY,
    KASSA_LOG_LEVEL: 'warn',
    KASSA_ADMIN_PORT: '0',
    PORT: String(port),
  };
  return {
    port,
    configFile,
    env,
    /** Opens Kassa's database in this process (migrated), without chains. */
    openRuntime: () =>
      bootstrap({ env, configFile, migrations: 'apply', logger: silentLogger(), chains: false }),
  };
}

export type KassaSetup = ReturnType<typeof writeKassaSetup>;

/**
 * Creates a V3 and a V2 merchant whose webhooks go to `receiver`, each ledger funded with
 * `FUNDING` of every token it pays out in (payouts are paid in USDT on ETH).
 */
export async function createSoakMerchants(
  kassa: KassaSetup,
  receiver: { url: string; secrets: Map<string, string> },
  tokens: readonly Token[],
): Promise<MerchantCreated[]> {
  const merchants: MerchantCreated[] = [];
  const rt = await kassa.openRuntime();
  for (const kind of ['V3', 'V2'] as const) {
    const m = await createMerchant(rt, { kind, name: `soak ${kind}`, callbackUrl: receiver.url });
    merchants.push(m);
    receiver.secrets.set(m.merchantId, m.webhookSecret);
    for (const t of tokens) {
      if (t.chain === 'ETH' && t.symbol === 'USDC') continue; // payouts are paid in USDT on ETH
      await adjustLedger(rt, {
        merchantId: m.merchantId,
        chain: t.chain,
        symbol: t.symbol,
        amount: FUNDING,
        reason: 'soak: prefunded payouts',
      });
    }
  }
  await rt.close();
  return merchants;
}
