import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { body, type Harness, makeHarness } from '../../../test/helpers/harness.ts';
import { checkoutLinkSign } from '../../../test/helpers/signing.ts';
import type { MerchantCreated } from '../../services/manage-merchants.ts';

const PATH = '/v1/order/createCollection';
let h: Harness;
let v3: MerchantCreated;
let v2: MerchantCreated;

beforeEach(async () => {
  h = await makeHarness();
  v3 = await h.merchant('V3');
  v2 = await h.merchant('V2');
});
afterEach(() => h.close());

const order = (extra: Record<string, unknown> = {}) => ({
  amount: '10.5',
  symbol: 'USDT',
  chain: 'TRON',
  orderId: 'A-1',
  ...extra,
});

describe('POST /v1/order/createCollection', () => {
  it('returns a PaymentAddress with every field of the interface', async () => {
    const res = await h.post(PATH, v3, order({ uid: 'u-9' }));
    expect(res.status).toBe(200);
    const r = await body<Record<string, unknown>>(res);
    expect(r.code).toBe(200);
    expect(r.msg).toBe('success');
    expect(Object.keys(r.data).sort()).toEqual(
      ['address', 'amount', 'chain', 'expiredTime', 'orderId', 'paymentUrl', 'symbol', 'uid'].sort(),
    );
    expect(r.data).toMatchObject({
      amount: '10.5',
      symbol: 'USDT',
      chain: 'TRON',
      orderId: 'A-1',
      uid: 'u-9',
    });
    expect(r.data.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(r.data.expiredTime).toBe(Math.floor(h.clock.now() / 1000) + 1800);
    expect(r.data.paymentUrl).toBe(
      `http://localhost:180/checkout?orderId=A-1&sign=${checkoutLinkSign(v3.token, 'A-1')}`,
    );
  });

  it('gives every order an address no other order has had, in the family of its chain', async () => {
    const seen = new Set<string>();
    const chains = ['ETH', 'BSC', 'POLYGON', 'AVAX_C_CHAIN', 'ETH', 'TRON', 'SUI', 'SUI'];
    for (const [i, chain] of chains.entries()) {
      const symbol = chain === 'TRON' ? 'USDT' : 'USDC';
      const r = await body<{ address: string }>(
        await h.post(PATH, v3, order({ chain, symbol, orderId: `o${i}` })),
      );
      expect(seen.has(r.data.address)).toBe(false);
      seen.add(r.data.address);
      if (chain === 'SUI') expect(r.data.address).toMatch(/^0x[0-9a-f]{64}$/);
      else if (chain !== 'TRON') expect(r.data.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    }
    expect(seen.size).toBe(8);
  });

  it('returns null uid when none is sent', async () => {
    const r = await body<{ uid: unknown }>(await h.post(PATH, v3, order()));
    expect(r.data.uid).toBeNull();
  });

  it('is idempotent on (merchant, orderId): the same request returns the same order and address', async () => {
    const a = await body<{ address: string }>(await h.post(PATH, v3, order()));
    const b = await body<{ address: string }>(await h.post(PATH, v3, order({ amount: '10.50' })));
    expect(b.code).toBe(200);
    expect(b.data.address).toBe(a.data.address);
  });

  it('refuses the same orderId with different parameters with 409 and changes nothing', async () => {
    const a = await body<{ address: string }>(await h.post(PATH, v3, order()));
    const res = await h.post(PATH, v3, order({ amount: '11' }));
    expect(res.status).toBe(409);
    expect(await body(res)).toEqual({
      code: 409,
      msg: 'The orderId already exists with different parameters.',
      data: null,
    });
    const again = await body<{ address: string; amount: string }>(await h.post(PATH, v3, order()));
    expect(again.data).toMatchObject({ address: a.data.address, amount: '10.5' });
  });

  it('lets two merchants use the same orderId independently', async () => {
    const other = await h.merchant('V3');
    const a = await body<{ address: string }>(await h.post(PATH, v3, order()));
    const b = await body<{ address: string }>(await h.post(PATH, other, order({ amount: '99' })));
    expect(b.code).toBe(200);
    expect(b.data.address).not.toBe(a.data.address);
  });

  it('generates an orderId for a V2 merchant that sends only uid', async () => {
    const r = await body<{ orderId: string; uid: string }>(
      await h.post(PATH, v2, { amount: '1', symbol: 'USDT', chain: 'TRON', uid: '42' }),
    );
    expect(r.code).toBe(200);
    expect(r.data.orderId).toMatch(/^gen_[0-9a-z]{20}$/); // never the internal ord_ prefix
    expect(r.data.uid).toBe('42');
    const order = await h.rt.db.findOrderByMerchantOrderId(v2.merchantId, r.data.orderId);
    expect(order?.id).toMatch(/^ord_/);
  });

  it('accepts the symbol in any case and answers with its configured spelling', async () => {
    const r = await body<{ symbol: string }>(await h.post(PATH, v3, order({ symbol: 'usdt' })));
    expect(r.data.symbol).toBe('USDT');
  });

  describe('validation errors carry the interface messages, with code 400 and data null', () => {
    const cases: [string, 'V2' | 'V3', Record<string, unknown>, string][] = [
      [
        'amount missing',
        'V3',
        { symbol: 'USDT', chain: 'TRON', orderId: 'x' },
        'The amount cannot be left blank.',
      ],
      [
        'amount null',
        'V3',
        { amount: null, symbol: 'USDT', chain: 'TRON', orderId: 'x' },
        'The amount cannot be left blank.',
      ],
      [
        'symbol missing',
        'V3',
        { amount: '1', chain: 'TRON', orderId: 'x' },
        'The symbol cannot be left blank.',
      ],
      [
        'symbol empty',
        'V3',
        { amount: '1', symbol: '', chain: 'TRON', orderId: 'x' },
        'The symbol cannot be left blank.',
      ],
      [
        'chain missing',
        'V3',
        { amount: '1', symbol: 'USDT', orderId: 'x' },
        'The chain cannot be left blank.',
      ],
      [
        'chain invalid',
        'V3',
        { amount: '1', symbol: 'USDT', chain: 'DOGE', orderId: 'x' },
        'The chain cannot be left blank.',
      ],
      [
        'orderId missing (V3)',
        'V3',
        { amount: '1', symbol: 'USDT', chain: 'TRON' },
        'The orderId cannot be left blank.',
      ],
      [
        'uid missing (V2)',
        'V2',
        { amount: '1', symbol: 'USDT', chain: 'TRON' },
        'The uid cannot be left blank.',
      ],
      ['uid zero', 'V2', { amount: '1', symbol: 'USDT', chain: 'TRON', uid: '0' }, 'The uid cannot be zero.'],
      [
        'uid zero as a number',
        'V2',
        { amount: '1', symbol: 'USDT', chain: 'TRON', uid: 0 },
        'The uid cannot be zero.',
      ],
      ['amount zero', 'V3', order({ amount: '0' }), 'The amount must be a decimal string greater than zero.'],
      [
        'amount negative',
        'V3',
        order({ amount: '-1' }),
        'The amount must be a decimal string greater than zero.',
      ],
      [
        'amount exponent',
        'V3',
        order({ amount: '1e3' }),
        'The amount must be a decimal string greater than zero.',
      ],
      [
        'amount with surrounding spaces',
        'V3',
        order({ amount: ' 5' }),
        'The amount must be a decimal string greater than zero.',
      ],
      [
        'amount with a trailing newline',
        'V3',
        order({ amount: '5\n' }),
        'The amount must be a decimal string greater than zero.',
      ],
      ['amount of spaces only', 'V3', order({ amount: '   ' }), 'The amount cannot be left blank.'],
      [
        'amount with empty fraction',
        'V3',
        order({ amount: '1.' }),
        'The amount must be a decimal string greater than zero.',
      ],
      [
        'amount too precise',
        'V3',
        order({ amount: '1.0000001' }),
        'The amount has more decimal places than the token supports.',
      ],
      ['symbol not on chain', 'V3', order({ symbol: 'USDC' }), 'The symbol is not supported on this chain.'],
    ];
    for (const [name, kind, data, msg] of cases) {
      it(name, async () => {
        const res = await h.post(PATH, kind === 'V3' ? v3 : v2, data);
        expect(res.status).toBe(400);
        expect(await body(res)).toEqual({ code: 400, msg, data: null });
      });
    }
  });

  it('accepts 18 decimal places on BSC, where the stablecoins have 18 decimals', async () => {
    const res = await h.post(PATH, v3, order({ chain: 'BSC', amount: '1.000000000000000001' }));
    expect((await body(res)).code).toBe(200);
  });
});
