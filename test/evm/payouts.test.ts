import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { attemptsOfOrder } from '../../src/db/repositories/payouts.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import { setBlocked, tokenBalance } from '../../src/devnet/evm/tokens.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { pollPayouts } from '../../src/services/poll-payouts.ts';
import { type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { body } from '../helpers/harness.ts';
import { hookedAdapter } from '../helpers/hooked-adapter.ts';

let w: EvmWorld;
let m: MerchantCreated;
let n = 0;
const receiver = '0x1111111111111111111111111111111111111111' as Address;

beforeAll(async () => {
  w = await evmWorld(['ETH', 'POLYGON']);
  m = await w.h.merchant('V3');
  for (const chain of ['ETH', 'POLYGON'])
    for (const symbol of ['USDT', 'USDC', chain === 'ETH' ? 'ETH' : 'POL'])
      await w.h.fund(m, chain, symbol, '100000000');
});
afterAll(() => w?.close());

async function payout(chain: string, symbol: string, amount: string, to: string = receiver) {
  const orderId = `p-${++n}`;
  const res = await w.h.post('/v1/order/createPayout', m, {
    amount,
    symbol,
    chain,
    orderId,
    receiveAddress: to,
  });
  return { orderId, res, r: await body<{ address: string }>(res) };
}

function order(orderId: string) {
  const o = findOrderByMerchantOrderId(w.h.db, m.merchantId, orderId);
  if (!o) throw new Error(`no order ${orderId}`);
  return o;
}

describe('EVM payouts on a real node', () => {
  it('sends a USDT payout on Ethereum (transfer returns nothing) through PENDING and PENDING_CONFIRMATION to SUCCESS', async () => {
    const c = w.devnet.get('ETH');
    const before = await tokenBalance(c.client, c.tokens.USDT.address, receiver);
    const { orderId, r } = await payout('ETH', 'USDT', '12.5');
    expect(r.code).toBe(200);
    expect(r.data.address).toBe(w.hot('ETH'));
    await w.payouts('ETH'); // signs, stores, broadcasts; anvil mines it at once
    expect(order(orderId).status).toBe('PENDING_CONFIRMATION');
    await w.mine('ETH', 2);
    await w.payouts('ETH');
    const done = order(orderId);
    expect(done.status).toBe('SUCCESS');
    expect(done.actualAmountBase).toBe(12_500_000n);
    expect(done.transaction).toMatchObject({
      status: 'SUCCESS',
      confirmedNum: 3,
      from: w.hot('ETH'),
      to: receiver,
    });
    expect((await tokenBalance(c.client, c.tokens.USDT.address, receiver)) - before).toBe(12_500_000n);
    const events = w.h.db
      .select()
      .from(webhookEvents)
      .all()
      .filter((e) => JSON.parse(e.data).orderId === orderId);
    expect(events.map((e) => e.notifyType)).toEqual([
      'ORDER_PENDING',
      'ORDER_PENDING_CONFIRMATION',
      'ORDER_SUCCESS',
    ]);
  });

  it('never sends the same payout twice, however often the job runs', async () => {
    const c = w.devnet.get('ETH');
    const before = await tokenBalance(c.client, c.tokens.USDC.address, receiver);
    const { orderId } = await payout('ETH', 'USDC', '1');
    for (let i = 0; i < 4; i++) await w.payouts('ETH');
    await w.mine('ETH', 3);
    for (let i = 0; i < 3; i++) await w.payouts('ETH');
    expect(order(orderId).status).toBe('SUCCESS');
    expect(attemptsOfOrder(w.h.db, order(orderId).id)).toHaveLength(1);
    expect((await tokenBalance(c.client, c.tokens.USDC.address, receiver)) - before).toBe(1_000_000n);
  });

  it('stores and sends nothing it signed after the worker lost its lease, and the next holder sends it once', async () => {
    const c = w.devnet.get('ETH');
    const before = await tokenBalance(c.client, c.tokens.USDC.address, receiver);
    const nonceBefore = await c.client.getTransactionCount({ address: w.hot('ETH') });
    const { orderId } = await payout('ETH', 'USDC', '2');
    // the lease is lost (the job's signal aborted) while the payout is being signed
    const lease = new AbortController();
    const adapter = hookedAdapter(w.h.rt.adapters.get('ETH')!, (method) => {
      if (method === 'signPayout') lease.abort();
    });
    await pollPayouts(w.h.rt, adapter, lease.signal);
    expect(order(orderId).status).toBe('INIT');
    expect(attemptsOfOrder(w.h.db, order(orderId).id)).toEqual([]);
    expect(await c.client.getTransactionCount({ address: w.hot('ETH') })).toBe(nonceBefore);
    // the next holder's run signs it anew, once
    await w.payouts('ETH');
    await w.mine('ETH', 3);
    await w.payouts('ETH');
    expect(order(orderId).status).toBe('SUCCESS');
    expect(attemptsOfOrder(w.h.db, order(orderId).id)).toHaveLength(1);
    expect((await tokenBalance(c.client, c.tokens.USDC.address, receiver)) - before).toBe(2_000_000n);
  });

  it('sends a native POL payout on Polygon', async () => {
    const c = w.devnet.get('POLYGON');
    const before = await c.client.getBalance({ address: receiver });
    const { orderId } = await payout('POLYGON', 'POL', '0.5');
    await w.payouts('POLYGON');
    await w.mine('POLYGON', 3);
    await w.payouts('POLYGON');
    expect(order(orderId).status).toBe('SUCCESS');
    expect((await c.client.getBalance({ address: receiver })) - before).toBe(500_000_000_000_000_000n);
  });

  it('fails a payout the token contract reverts (blocked recipient) with the reason, sending nothing', async () => {
    const c = w.devnet.get('ETH');
    const blocked = '0x2222222222222222222222222222222222222222' as Address;
    await setBlocked(c.client, { token: c.tokens.USDC.address, account: blocked, blocked: true });
    const { orderId } = await payout('ETH', 'USDC', '2', blocked);
    await w.payouts('ETH');
    const failed = order(orderId);
    expect(failed.status).toBe('FAILED');
    expect(failed.reason).toContain('The transfer would revert');
    expect(attemptsOfOrder(w.h.db, failed.id)).toHaveLength(0);
  });

  it('refuses a payout the hot wallet cannot cover with 422, counting payouts already queued', async () => {
    const c = w.devnet.get('POLYGON');
    const balance = await tokenBalance(c.client, c.tokens.USDC.address, w.hot('POLYGON'));
    const whole = balance / 1_000_000n;
    const first = await payout('POLYGON', 'USDC', String(whole - 10n));
    expect(first.res.status).toBe(200);
    const second = await payout('POLYGON', 'USDC', '20');
    expect(second.res.status).toBe(422);
    expect(second.r.msg).toBe('Insufficient balance for this payout.');
    const small = await payout('POLYGON', 'USDC', '5');
    expect(small.res.status).toBe(200);
  });

  it('refuses a native payout larger than the hot wallet holds', async () => {
    const { res } = await payout('ETH', 'ETH', '1000000');
    expect(res.status).toBe(422);
  });
});
