import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepMerge } from '../../src/config/load.ts';
import { type EvmDevnet, startEvmDevnet } from '../../src/devnet/evm/devnet.ts';
import { createKeyRing } from '../../src/keys/key-ring.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { type ApiProcesses, startApiProcesses } from '../helpers/api-processes.ts';
import { devnetChainConfig } from '../helpers/evm-chain.ts';
import { TEST_MNEMONIC } from '../helpers/harness.ts';
import { type FreshPgDatabase, freshPgDatabase } from '../helpers/pg-database.ts';
import { pgQuery } from '../helpers/pg-query.ts';
import { envelope } from '../helpers/signing.ts';

/**
 * Two real `kassa api` processes on one PostgreSQL database, requests spread over both: what one
 * process decides, the other must respect, because the only thing they share is the database. ETH
 * on anvil (createPayout reads the hot wallet from the node); merchants, ledger top-ups and token
 * rotation through the `kassa` CLI, a third process. Besides the answers, the tests read what
 * PostgreSQL holds (orders, addresses), which also proves the processes ran on it.
 */
const COLLECT = '/v1/order/createCollection';
const PAYOUT = '/v1/order/createPayout';
const RECEIVER = '0x1111111111111111111111111111111111111111';
const plenty = { limit: 1_000_000, windowSeconds: 10 };

let devnet: EvmDevnet;
let database: FreshPgDatabase;
let api: ApiProcesses;
/** Merchants made by `kassa merchant create`: for orders, for payouts against its balance, against the daily limit. */
let m: MerchantCreated;
let pays: MerchantCreated;
let daily: MerchantCreated;

/** One query against the processes' database, from outside them. */
const query = <T>(text: string, params: unknown[] = []) => pgQuery<T>(database.url, text, params);

async function merchant(): Promise<MerchantCreated> {
  const r = await api.cli(['merchant', 'create', '--kind', 'V3']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as MerchantCreated;
}

async function topUp(merchant: MerchantCreated, symbol: string, amount: string): Promise<void> {
  const r = await api.cli([
    'ledger',
    'adjust',
    ...['--merchant', merchant.merchantId, '--chain', 'ETH', '--symbol', symbol],
    ...['--amount', amount, '--reason', 'race test'],
  ]);
  expect(r.code, r.stderr).toBe(0);
}

/** Sends requests [i] to process i % 2, all at once, and reads every answer. */
async function spread(requests: { path: string; token: string; data?: unknown; text?: string }[]) {
  const answers = await Promise.all(requests.map((r, i) => api.post(i % 2, r.path, r.token, r.data, r.text)));
  return Promise.all(
    answers.map(async (res) => ({
      status: res.status,
      ...((await res.json()) as { code: number; msg: string; data: { address?: string } | null }),
    })),
  );
}

beforeAll(async () => {
  const hot = createKeyRing(TEST_MNEMONIC).hotWallet('ETH').address as Address;
  [devnet, database] = await Promise.all([
    startEvmDevnet({ chains: ['ETH'], fund: { accounts: [hot], tokens: 1_000_000n } }),
    freshPgDatabase(),
  ]);
  const config = deepMerge(devnetChainConfig(devnet), {
    orders: { handlingFee: '0.5' },
    rateLimits: { createCollection: plenty, createPayout: plenty, status: plenty, getBalance: plenty },
    auth: { failedAttempts: { limit: 1_000_000, windowSeconds: 60 } },
    payouts: { limits: { dailyAmount: { USDC: '5' } } },
  }) as Record<string, unknown>;
  api = await startApiProcesses(2, { KASSA_DATABASE_URL: database.url }, config);
  [m, pays, daily] = await Promise.all([merchant(), merchant(), merchant()]);
  await Promise.all([topUp(pays, 'USDT', '+10'), topUp(daily, 'USDC', '+1000')]);
}, 120_000);

afterAll(async () => {
  await api?.stop();
  await devnet?.stop();
  await database?.drop();
});

describe('two kassa api processes on one PostgreSQL', () => {
  it('makes one order of the same createCollection sent to both at once, every answer that order', async () => {
    const data = { amount: '10.5', symbol: 'USDT', chain: 'ETH', orderId: 'same-1' };
    const answers = await spread(Array.from({ length: 16 }, () => ({ path: COLLECT, token: m.token, data })));
    expect(answers.map((a) => a.code)).toEqual(Array(16).fill(200));
    expect(new Set(answers.map((a) => a.data?.address)).size).toBe(1);
    const stored = await query<{ address: string }>(
      'SELECT address FROM orders WHERE merchant_id = $1 AND order_id = $2',
      [m.merchantId, 'same-1'],
    );
    expect(stored).toEqual([{ address: answers[0]?.data?.address }]);
  });

  it('keeps the first of one orderId sent with different amounts to both at once, 409 for the others', async () => {
    const amounts = ['1', '2', '3', '4', '5', '6', '7', '8'];
    const answers = await spread(
      amounts.map((amount) => ({
        path: COLLECT,
        token: m.token,
        data: { amount, symbol: 'USDT', chain: 'ETH', orderId: 'conflict-1' },
      })),
    );
    const won = answers.flatMap((a, i) => (a.code === 200 ? [amounts[i]] : []));
    expect(won).toHaveLength(1);
    expect(answers.filter((a) => a.code === 409).map((a) => a.msg)).toEqual(
      Array(7).fill('The orderId already exists with different parameters.'),
    );
    const stored = await query<{ amount: string }>(
      'SELECT amount FROM orders WHERE merchant_id = $1 AND order_id = $2',
      [m.merchantId, 'conflict-1'],
    );
    expect(stored).toEqual([{ amount: won[0] }]);
  });

  it('hands 200 different orders sent to both at once 200 different deposit addresses', async () => {
    // USDT and USDC in turn: both tokens' orders draw on the one EVM address pool
    const answers = await spread(
      Array.from({ length: 200 }, (_, i) => ({
        path: COLLECT,
        token: m.token,
        data: { amount: '3', symbol: i % 2 ? 'USDC' : 'USDT', chain: 'ETH', orderId: `many-${i}` },
      })),
    );
    expect(answers.filter((a) => a.code !== 200)).toEqual([]);
    expect(new Set(answers.map((a) => a.data?.address)).size).toBe(200);
    // and in the database: no address on two orders, each order's address allocated to it alone
    const shared = await query('SELECT address FROM orders GROUP BY address HAVING count(*) > 1');
    expect(shared).toEqual([]);
    const misallocated = await query(
      `SELECT o.order_id FROM orders o LEFT JOIN deposit_addresses d ON d.address = o.address
       WHERE o.type = 'COLLECTION' AND (d.order_ref IS DISTINCT FROM o.id)`,
    );
    expect(misallocated).toEqual([]);
  });

  it('refuses a signed request replayed to the other process: its nonce was used there', async () => {
    const data = { amount: '1', symbol: 'USDT', chain: 'ETH', orderId: 'replay-1' };
    const text = envelope(m.token, data);
    expect((await api.post(0, COLLECT, m.token, null, text)).status).toBe(200);
    const replay = await api.post(1, COLLECT, m.token, null, text);
    expect(replay.status).toBe(401);
    expect(((await replay.json()) as { msg: string }).msg).toBe('The nonce has already been used.');
    // the same envelope to both at once, twenty times: each time exactly one process takes it
    for (let round = 0; round < 20; round++) {
      const once = envelope(m.token, { ...data, orderId: `replay-race-${round}` });
      const [a, b] = await spread([
        { path: COLLECT, token: m.token, text: once },
        { path: COLLECT, token: m.token, text: once },
      ]);
      expect([a?.code, b?.code].sort()).toEqual([200, 401]);
    }
  });

  it('never accepts more payouts from both processes at once than the merchant balance covers', async () => {
    const p = pays;
    // 20 payouts of 1 USDT + 0.5 fee against 10 USDT: exactly 6 fit (9.00), whoever answers
    const answers = await spread(
      Array.from({ length: 20 }, (_, i) => ({
        path: PAYOUT,
        token: p.token,
        data: { amount: '1', symbol: 'USDT', chain: 'ETH', orderId: `pay-${i}`, receiveAddress: RECEIVER },
      })),
    );
    const refused = answers.filter((a) => a.code !== 200);
    expect(answers.length - refused.length).toBe(6);
    expect(refused.map((a) => [a.code, a.msg.startsWith('Insufficient funds.')])).toEqual(
      Array(14).fill([422, true]),
    );
    const balance = await api.post(1, '/v1/merchant/getBalance', p.token, { chain: 'ETH', symbol: 'USDT' });
    expect(((await balance.json()) as { data: unknown[] }).data).toMatchObject([
      { balance: '1.00', frozenBalance: '9.00', totalBalance: '10.00' },
    ]);
    const payouts = await query("SELECT id FROM orders WHERE merchant_id = $1 AND type = 'PAYOUT'", [
      p.merchantId,
    ]);
    expect(payouts).toHaveLength(6);
  });

  it('never accepts more payouts from both processes at once than the daily limit', async () => {
    const p = daily;
    // a daily limit of 5 USDC: 12 payouts of 1 USDC, exactly 5 accepted
    const answers = await spread(
      Array.from({ length: 12 }, (_, i) => ({
        path: PAYOUT,
        token: p.token,
        data: { amount: '1', symbol: 'USDC', chain: 'ETH', orderId: `day-${i}`, receiveAddress: RECEIVER },
      })),
    );
    const refused = answers.filter((a) => a.code !== 200);
    expect(answers.length - refused.length).toBe(5);
    expect(refused.map((a) => [a.code, a.msg])).toEqual(
      Array(7).fill([422, 'The payout exceeds the daily limit.']),
    );
    const payouts = await query('SELECT amount FROM orders WHERE merchant_id = $1', [p.merchantId]);
    expect(payouts).toEqual(Array(5).fill({ amount: '1' }));
  });
});
