import { bootstrap } from '../../src/bootstrap.ts';
import { createApp } from '../../src/http/app.ts';
import { silentLogger } from '../../src/lib/logger.ts';
import type { Deps } from '../../src/services/deps.ts';
import { createMerchant, type MerchantCreated } from '../../src/services/manage-merchants.ts';
import { TEST_MASTER_KEY, TEST_MNEMONIC } from './harness.ts';
import { type FreshPgDatabase, freshPgDatabase } from './pg-database.ts';
import { envelope } from './signing.ts';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

/**
 * Kassa in this process on a fresh PostgreSQL database that it reaches through a TCP proxy the
 * test can cut, stall and restore: how the outage and partition tests put the network between them.
 */
export interface KassaBehindProxy {
  database: FreshPgDatabase;
  proxy: TcpProxy;
  /** The proxy's URL of the database (what Kassa was given). */
  url: string;
  rt: Deps;
  merchant: MerchantCreated;
  /** A signed createCollection with a new orderId, through the public app: its status and envelope. */
  createCollection(): Promise<{ status: number; body: { code: number; msg: string } }>;
  close(): Promise<void>;
}

/** Starts it with `database` settings beside the URL (timeouts), and one V3 merchant. */
export async function kassaBehindProxy(database: Record<string, unknown> = {}): Promise<KassaBehindProxy> {
  const fresh = await freshPgDatabase();
  const target = new URL(fresh.url);
  const proxy = await startTcpProxy(Number(target.port));
  target.port = String(proxy.port);
  const url = target.toString();
  const rt = await bootstrap({
    env: { KASSA_MNEMONIC: TEST_MNEMONIC, KASSA_MASTER_KEY: TEST_MASTER_KEY },
    overrides: { database: { url, ...database } },
    logger: silentLogger(),
  });
  const merchant = await createMerchant(rt, { kind: 'V3', name: 'behind a proxy' });
  let n = 0;
  return {
    database: fresh,
    proxy,
    url,
    rt,
    merchant,
    async createCollection() {
      const res = await createApp(rt).request('/v1/order/createCollection', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: envelope(merchant.token, { amount: '1', symbol: 'USDT', chain: 'ETH', orderId: `o-${++n}` }),
      });
      return { status: res.status, body: (await res.json()) as { code: number; msg: string } };
    },
    async close() {
      proxy.resume();
      await rt.close();
      await proxy.close();
      await fresh.drop();
    },
  };
}
