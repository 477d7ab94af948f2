import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, type Harness, makeHarness } from '../../../test/helpers/harness.ts';
import type { MerchantCreated } from '../../services/manage-merchants.ts';
import type { TokenRef } from '../../services/payout-funding.ts';

const PATH = '/v1/order/createPayout';
const TRON_TO = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const EVM_TO = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const SUI_TO = `0x${'5e'.repeat(32)}`;
let h: Harness;
let m: MerchantCreated;

beforeEach(async () => {
  h = await makeHarness();
  m = await h.merchant('V3');
  for (const [chain, symbol] of [
    ['TRON', 'USDT'],
    ['ETH', 'USDT'],
    ['BSC', 'USDT'],
    ['POLYGON', 'USDT'],
    ['SUI', 'USDC'],
  ] as const)
    await h.fund(m, chain, symbol, '1000');
});
afterEach(() => h.close());

const payout = (extra: Record<string, unknown> = {}) => ({
  amount: '3.25',
  symbol: 'USDT',
  chain: 'TRON',
  receiveAddress: TRON_TO,
  orderId: 'P-1',
  ...extra,
});

describe('POST /v1/order/createPayout', () => {
  it('queues the payout in INIT and answers with the hot wallet as source and no uid', async () => {
    const res = await h.post(PATH, m, payout({ uid: 'u1' }));
    const r = await body<Record<string, unknown>>(res);
    expect(r.code).toBe(200);
    expect(Object.keys(r.data).sort()).toEqual([
      'address',
      'amount',
      'chain',
      'expiredTime',
      'orderId',
      'symbol',
    ]);
    expect(r.data).toMatchObject({ amount: '3.25', symbol: 'USDT', chain: 'TRON', orderId: 'P-1' });
    expect(r.data.address).toBe(h.rt.keys?.hotWallet('TRON').address);
    const status = await body<{ status: string; orderType: string }>(
      await h.getSigned('/v1/order/status/{orderId}', m, 'P-1'),
    );
    expect(status.data).toMatchObject({ status: 'INIT', orderType: 'PAYOUT' });
  });

  it('uses each EVM chain’s own hot wallet', async () => {
    const eth = await body<{ address: string }>(
      await h.post(PATH, m, payout({ chain: 'ETH', receiveAddress: EVM_TO, orderId: 'e' })),
    );
    const bsc = await body<{ address: string }>(
      await h.post(PATH, m, payout({ chain: 'BSC', receiveAddress: EVM_TO, orderId: 'b' })),
    );
    expect(eth.data.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(eth.data.address).not.toBe(bsc.data.address);
  });

  it('accepts each family’s address format on its chain', async () => {
    expect(
      (await body(await h.post(PATH, m, payout({ chain: 'POLYGON', receiveAddress: EVM_TO.toLowerCase() }))))
        .code,
    ).toBe(200);
    expect(
      (
        await body(
          await h.post(
            PATH,
            m,
            payout({ chain: 'SUI', symbol: 'USDC', receiveAddress: SUI_TO, orderId: 's' }),
          ),
        )
      ).code,
    ).toBe(200);
  });

  describe('refuses what the interface refuses', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['amount missing', payout({ amount: undefined }), 'The amount cannot be left blank.'],
      ['symbol missing', payout({ symbol: undefined }), 'The symbol cannot be left blank.'],
      ['chain invalid', payout({ chain: 'BTC' }), 'The chain cannot be left blank.'],
      ['orderId missing', payout({ orderId: undefined }), 'The orderId cannot be left blank.'],
      [
        'receiveAddress missing',
        payout({ receiveAddress: undefined }),
        'The receiveAddress cannot be left blank.',
      ],
      ['receiveAddress empty', payout({ receiveAddress: '' }), 'The receiveAddress cannot be left blank.'],
      ['EVM address on TRON', payout({ receiveAddress: EVM_TO }), 'ReceiveAddress error'],
      [
        'TRON address with a bad checksum',
        payout({ receiveAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u' }),
        'ReceiveAddress error',
      ],
      ['TRON address on ETH', payout({ chain: 'ETH', receiveAddress: TRON_TO }), 'ReceiveAddress error'],
      [
        'EVM address with a broken EIP-55 checksum',
        payout({ chain: 'ETH', receiveAddress: '0xdAC17F958D2ee523a2206206994597C13D831eC7' }),
        'ReceiveAddress error',
      ],
      [
        'short Sui address',
        payout({ chain: 'SUI', symbol: 'USDC', receiveAddress: EVM_TO }),
        'ReceiveAddress error',
      ],
      [
        'amount too precise',
        payout({ amount: '0.0000001' }),
        'The amount has more decimal places than the token supports.',
      ],
    ];
    for (const [name, data, msg] of cases) {
      it(name, async () => {
        const res = await h.post(PATH, m, data);
        expect(res.status).toBe(400);
        expect(await body(res)).toEqual({ code: 400, msg, data: null });
      });
    }
  });

  it('refuses paying to its own hot wallet', async () => {
    const hot = h.rt.keys?.hotWallet('TRON').address;
    const res = await h.post(PATH, m, payout({ receiveAddress: hot }));
    expect((await body(res)).msg).toBe('ReceiveAddress error');
  });

  it('is idempotent on orderId and refuses a different destination under the same orderId', async () => {
    expect((await h.post(PATH, m, payout())).status).toBe(200);
    expect((await h.post(PATH, m, payout())).status).toBe(200);
    const other = await h.post(PATH, m, payout({ receiveAddress: 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8' }));
    expect(other.status).toBe(409);
  });

  const wallet = (usdt: bigint, trx = 1_000n * 1_000_000n) => ({
    read: async ({ token, from }: { token: TokenRef; from: string }) => ({
      from,
      token,
      native: { chain: 'TRON' as const, symbol: 'TRX', contract: null, decimals: 6 },
      tokenBalance: usdt,
      nativeBalance: trx,
      feePerPayout: 1_000_000n,
    }),
  });

  it('refuses with 422 when the hot wallet cannot fund it, and queues nothing', async () => {
    h.rt.payoutFunding = wallet(1_000_000n);
    const res = await h.post(PATH, m, payout());
    expect(res.status).toBe(422);
    expect(await body(res)).toEqual({ code: 422, msg: 'Insufficient balance for this payout.', data: null });
    expect((await h.getSigned('/v1/order/getOrderStatus', m, 'P-1')).status).toBe(404);
  });

  it('counts queued payouts against the hot wallet balance it checks, and their fees against its TRX', async () => {
    h.rt.payoutFunding = wallet(7_000_000n);
    expect((await h.post(PATH, m, payout({ orderId: 'q1' }))).status).toBe(200);
    expect((await h.post(PATH, m, payout({ orderId: 'q2' }))).status).toBe(200);
    expect((await h.post(PATH, m, payout({ orderId: 'q3' }))).status).toBe(422); // 3 × 3.25 > 7
    h.rt.payoutFunding = wallet(100_000_000n, 2_500_000n); // TRX for two payouts' fees, one is queued
    expect((await h.post(PATH, m, payout({ orderId: 'q4' }))).status).toBe(422);
  });
});
