import type { Address } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepMerge } from '../../src/config/load.ts';
import { type EvmDevnet, startEvmDevnet } from '../../src/devnet/evm/devnet.ts';
import { tokenBalance, transferToken } from '../../src/devnet/evm/tokens.ts';
import { createKeyRing } from '../../src/keys/key-ring.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { type ApiProcesses, startApiProcesses } from '../helpers/api-processes.ts';
import { devnetChainConfig } from '../helpers/evm-chain.ts';
import { TEST_MNEMONIC } from '../helpers/harness.ts';
import { type FreshPgDatabase, freshPgDatabase } from '../helpers/pg-database.ts';
import { pgQuery } from '../helpers/pg-query.ts';
import { signData } from '../helpers/signing.ts';
import { type Receiver, startReceiver, verifyWebhook } from '../helpers/webhook-receiver.ts';

/**
 * A shop on PostgreSQL as compose's `postgres` profile runs it: two `kassa api` processes and one
 * `kassa worker` on one database, ETH on anvil, the merchant's webhook receiver on 127.0.0.1. An
 * order made through one API process is paid on chain, credited by the worker, announced by a
 * signed webhook and read back through the other; the merchant's payout from that credit is sent
 * by the worker; `kassa reconcile` then finds the chain and the records in agreement. Every Store
 * area the product uses on a sale takes part: orders, deposit addresses, scanning, the ledger,
 * payouts, webhooks, leases and checkpoints, reconciliation.
 */
const customer = mnemonicToAccount('test test test test test test test test test test test junk', {
  addressIndex: 1,
});
const RECEIVER = '0x1111111111111111111111111111111111111111' as Address;

let devnet: EvmDevnet;
let database: FreshPgDatabase;
let hooks: Receiver;
let api: ApiProcesses;
let m: MerchantCreated;

beforeAll(async () => {
  const hot = createKeyRing(TEST_MNEMONIC).hotWallet('ETH').address as Address;
  [devnet, database, hooks] = await Promise.all([
    startEvmDevnet({ chains: ['ETH'], fund: { accounts: [hot, customer.address], tokens: 1_000_000n } }),
    freshPgDatabase(),
    startReceiver(),
  ]);
  const config = deepMerge(devnetChainConfig(devnet, { confirmations: 2 }), {
    orders: { handlingFee: '0.5' },
    webhooks: { allowPrivateTargets: true, pollIntervalMs: 50 },
  }) as Record<string, unknown>;
  api = await startApiProcesses(2, { KASSA_DATABASE_URL: database.url }, config);
  const created = await api.cli(['merchant', 'create', '--kind', 'V3', '--callback-url', hooks.url]);
  expect(created.code, created.stderr).toBe(0);
  m = JSON.parse(created.stdout) as MerchantCreated;
  api.start(['worker']);
}, 120_000);

afterAll(async () => {
  await api?.stop();
  await hooks?.close();
  await devnet?.stop();
  await database?.drop();
});

/** POSTs a signed request to API process `i` and reads its envelope. */
async function call<T>(i: number, path: string, data: unknown): Promise<{ code: number; data: T }> {
  return (await (await api.post(i, path, m.token, data)).json()) as { code: number; data: T };
}

/** Mines a block every 200 ms until the receiver holds a verified webhook `notifyType` of `orderId`. */
async function webhookOf(orderId: string, notifyType: string, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = hooks.received
      .map((r) => verifyWebhook(m.webhookSecret, r))
      .find((b) => b.data.orderId === orderId && b.notifyType === notifyType);
    if (found) return found;
    if (Date.now() > end) throw new Error(`no ${notifyType} webhook for ${orderId} within ${timeoutMs} ms`);
    await devnet.get('ETH').client.mine({ blocks: 1 });
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The merchant's USDC balance on ETH as API process `i` answers it. */
async function balance(i: number) {
  const r = await call<Record<string, unknown>[]>(i, '/v1/merchant/getBalance', {
    chain: 'ETH',
    symbol: 'USDC',
  });
  return r.data[0];
}

describe('a shop on PostgreSQL: two kassa api processes and a kassa worker', () => {
  it('credits a collection made through one API process, announces it and shows it through the other', async () => {
    const created = await call<{ address: Address }>(0, '/v1/order/createCollection', {
      amount: '5',
      symbol: 'USDC',
      chain: 'ETH',
      orderId: 'sale-1',
    });
    expect(created.code).toBe(200);
    const c = devnet.get('ETH');
    await transferToken(c.client, {
      from: customer,
      token: c.tokens.USDC.address,
      to: created.data.address,
      amount: 5_000_000n,
    });
    const success = await webhookOf('sale-1', 'ORDER_SUCCESS');
    expect(success.data).toMatchObject({ orderId: 'sale-1', status: 'SUCCESS', amount: '5' });
    const status = await fetch(
      `${api.urls[1]}/v1/order/status/sale-1?sign=${signData(m.token, 'sale-1')}`,
    ).then((r) => r.json() as Promise<{ data: { status: string } }>);
    expect(status.data.status).toBe('SUCCESS');
    expect(await balance(1)).toMatchObject({ balance: '4.50', frozenBalance: '0.00' });
    // once: the worker credited the order and announced each step a single time
    const successes = hooks.received.filter((r) => r.body.includes('"ORDER_SUCCESS"'));
    expect(successes).toHaveLength(1);
    const credits = await pgQuery(
      database.url,
      "SELECT id FROM ledger_entries WHERE kind = 'collection_credit'",
    );
    expect(credits).toHaveLength(1);
  });

  it('pays out from that credit through the other API process, sent by the worker', async () => {
    const c = devnet.get('ETH');
    const before = await tokenBalance(c.client, c.tokens.USDC.address, RECEIVER);
    const created = await call(1, '/v1/order/createPayout', {
      amount: '1',
      symbol: 'USDC',
      chain: 'ETH',
      orderId: 'payout-1',
      receiveAddress: RECEIVER,
    });
    expect(created.code).toBe(200);
    expect(await balance(0)).toMatchObject({ balance: '3.00', frozenBalance: '1.50' });
    const success = await webhookOf('payout-1', 'ORDER_SUCCESS');
    expect(success.data).toMatchObject({ orderId: 'payout-1', status: 'SUCCESS' });
    expect((await tokenBalance(c.client, c.tokens.USDC.address, RECEIVER)) - before).toBe(1_000_000n);
    expect(await balance(0)).toMatchObject({ balance: '3.00', frozenBalance: '0.00', totalBalance: '3.00' });
  });

  it('reconciles: kassa reconcile finds nothing unexplained between the chain and the PostgreSQL records', async () => {
    const r = await api.cli(['reconcile', '--json']);
    const report = JSON.parse(r.stdout) as { ok: boolean; unexplained: number };
    expect({ code: r.code, ok: report.ok, unexplained: report.unexplained }, r.stderr).toEqual({
      code: 0,
      ok: true,
      unexplained: 0,
    });
    const stored = await pgQuery(database.url, 'SELECT id FROM reconciliations');
    expect(stored).toHaveLength(1);
  });
});
