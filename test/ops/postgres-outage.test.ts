import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../src/bootstrap.ts';
import { createAdminApp } from '../../src/http/admin-app.ts';
import { createApp } from '../../src/http/app.ts';
import { silentLogger } from '../../src/lib/logger.ts';
import type { Deps } from '../../src/services/deps.ts';
import { createMerchant, type MerchantCreated } from '../../src/services/manage-merchants.ts';
import { TEST_MASTER_KEY, TEST_MNEMONIC } from '../helpers/harness.ts';
import { type FreshPgDatabase, freshPgDatabase } from '../helpers/pg-database.ts';
import { envelope } from '../helpers/signing.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

// PostgreSQL out of reach (the server down, the network cut): the API answers 503 "busy" and
// readiness says not ready, as SQLite's held lock does; nothing is answered as an internal error,
// and once the server is back the same process serves again.

let database: FreshPgDatabase;
let proxy: TcpProxy;
let rt: Deps;
let merchant: MerchantCreated;
let n = 0;

beforeAll(async () => {
  database = await freshPgDatabase();
  const url = new URL(database.url);
  proxy = await startTcpProxy(Number(url.port));
  url.port = String(proxy.port);
  rt = await bootstrap({
    env: { KASSA_MNEMONIC: TEST_MNEMONIC, KASSA_MASTER_KEY: TEST_MASTER_KEY },
    overrides: { database: { url: url.toString() } },
    logger: silentLogger(),
  });
  merchant = await createMerchant(rt, { kind: 'V3', name: 'outage' });
});

afterAll(async () => {
  await rt?.close();
  await proxy?.close();
  await database?.drop();
});

async function createCollection() {
  const res = await createApp(rt).request('/v1/order/createCollection', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: envelope(merchant.token, { amount: '1', symbol: 'USDT', chain: 'ETH', orderId: `o-${++n}` }),
  });
  return { status: res.status, body: (await res.json()) as { code: number; msg: string } };
}

describe('PostgreSQL out of reach', () => {
  it('answers 503 busy (retry) instead of an internal error, and readiness says not ready', async () => {
    expect((await createCollection()).body.code).toBe(200);
    await proxy.cut();
    expect(await createCollection()).toEqual({
      status: 503,
      body: { code: 503, msg: 'The service is busy. Please retry.', data: null },
    });
    const ready = await createAdminApp(rt).request('/readyz');
    expect(ready.status).toBe(503);
    const detail = (await ready.json()) as { database: { writable: boolean; error: string } };
    expect(detail.database.writable).toBe(false);
  });

  it('serves again once the server is back, from the same process', async () => {
    await proxy.restore();
    expect((await createCollection()).body.code).toBe(200);
    expect((await createAdminApp(rt).request('/readyz')).status).not.toBe(500);
  });
});
