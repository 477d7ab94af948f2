import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listBalances } from '../../src/db/repositories/ledger.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { attemptsOfOrder } from '../../src/db/repositories/payouts.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import { setBlocked, tokenBalance } from '../../src/devnet/evm/tokens.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import {
  approveOperatorPayout,
  listOperatorPayouts,
  rejectOperatorPayout,
} from '../../src/services/manage-payouts.ts';
import { pausePayouts, resumePayouts } from '../../src/services/payout-pause.ts';
import { type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { body } from '../helpers/harness.ts';

/**
 * Payout controls on anvil: the single and daily limits (global, replaced per merchant), the
 * per-merchant allowlist, approvals above a threshold, and pausing the signer.
 */
let w: EvmWorld;
let m: MerchantCreated;
let strict: MerchantCreated;
let n = 0;
const allowed = '0x6666666666666666666666666666666666666666' as Address;
const elsewhere = '0x7777777777777777777777777777777777777777' as Address;
const blocked = '0x8888888888888888888888888888888888888888' as Address;
const USDT = 1_000_000n;

beforeAll(async () => {
  w = await evmWorld(['ETH', 'BSC'], {
    overrides: {
      payouts: {
        limits: {
          maxAmount: { USDT: '500' },
          dailyAmount: { USDT: '700' },
          approvalAbove: { USDT: '200' },
        },
      },
    },
  });
  m = await w.h.merchant('V3');
  strict = await w.h.merchant('V3');
  w.h.clock.advance(1000);
  for (const who of [m, strict]) {
    await w.h.fund(who, 'ETH', 'USDT', '100000');
    await w.h.fund(who, 'BSC', 'USDT', '100000');
  }
  // a merchant with its own limits (USDT only) and an allowlist on ETH
  w.h.rt.config.payouts.merchants[strict.merchantId] = {
    maxAmount: { USDT: '50' },
    allowedAddresses: { ETH: [allowed.toLowerCase()] },
  };
});
afterAll(() => w?.close());

async function payout(
  amount: string,
  options: { to?: Address; merchant?: MerchantCreated; chain?: string } = {},
) {
  const orderId = `pc-${++n}`;
  const res = await w.h.post('/v1/order/createPayout', options.merchant ?? m, {
    amount,
    symbol: 'USDT',
    chain: options.chain ?? 'ETH',
    orderId,
    receiveAddress: options.to ?? allowed,
  });
  return { orderId, status: res.status, r: await body(res) };
}

const order = (orderId: string, merchant = m) => {
  const o = findOrderByMerchantOrderId(w.h.db, merchant.merchantId, orderId);
  if (!o) throw new Error(`no order ${orderId}`);
  return o;
};

async function settle(chain: 'ETH' | 'BSC' = 'ETH') {
  for (let i = 0; i < 3; i++) {
    await w.payouts(chain);
    await w.mine(chain, 3);
  }
  await w.payouts(chain);
}

const eventsOf = (orderId: string) =>
  w.h.db
    .select()
    .from(webhookEvents)
    .all()
    .filter((e) => JSON.parse(e.data).orderId === orderId)
    .map((e) => ({ type: e.notifyType, data: JSON.parse(e.data) }));

describe('payout limits', () => {
  it('refuses a payout above maxAmount with the contract’s message, and a merchant’s own limit replaces the global one', async () => {
    const big = await payout('500.01');
    expect(big.status).toBe(422);
    expect(big.r).toEqual({
      code: 422,
      msg: 'The payout exceeds the limit for a single payout.',
      data: null,
    });
    expect(findOrderByMerchantOrderId(w.h.db, m.merchantId, big.orderId)).toBeNull();
    expect((await payout('50.01', { merchant: strict })).r.msg).toBe(
      'The payout exceeds the limit for a single payout.',
    );
    expect((await payout('50', { merchant: strict })).status).toBe(200);
  });

  it('refuses a payout that would take the last 24 hours past dailyAmount; failed and expired payouts do not count', async () => {
    const day = await w.h.merchant('V3');
    w.h.clock.advance(1000);
    await w.h.fund(day, 'ETH', 'USDT', '10000');
    await w.h.fund(day, 'BSC', 'USDT', '10000');
    expect((await payout('200', { merchant: day })).status).toBe(200);
    expect((await payout('200', { merchant: day, chain: 'BSC' })).status).toBe(200); // per symbol, all chains
    expect((await payout('200', { merchant: day })).status).toBe(200);
    const over = await payout('100.01', { merchant: day });
    expect(over.status).toBe(422);
    expect(over.r.msg).toBe('The payout exceeds the daily limit.');
    // a payout that failed (the token refuses the receiver) gives its share of the day back
    const c = w.devnet.get('ETH');
    await setBlocked(c.client, { token: c.tokens.USDT.address, account: blocked, blocked: true });
    const failed = await payout('100', { merchant: day, to: blocked });
    expect(failed.status).toBe(200);
    expect((await payout('0.01', { merchant: day })).r.msg).toBe('The payout exceeds the daily limit.');
    await w.payouts('ETH');
    expect(order(failed.orderId, day).status).toBe('FAILED');
    expect((await payout('100', { merchant: day })).status).toBe(200); // exactly 700
    // a day later the window has moved on
    w.h.clock.advance(24 * 3600_000 + 1000);
    expect((await payout('150', { merchant: day })).status).toBe(200);
  });

  it('refuses a receiver that is not on the merchant’s allowlist for the chain; other chains are not limited', async () => {
    const off = await payout('10', { merchant: strict, to: elsewhere });
    expect(off.status).toBe(422);
    expect(off.r).toEqual({ code: 422, msg: 'The receiveAddress is not on the allowlist.', data: null });
    expect((await payout('10', { merchant: strict, to: allowed })).status).toBe(200); // checksummed spelling too
    expect((await payout('10', { merchant: strict, to: elsewhere, chain: 'BSC' })).status).toBe(200);
    expect((await payout('10', { merchant: m, to: elsewhere })).status).toBe(200);
  });
});

describe('approvals', () => {
  it('accepts a payout above approvalAbove as INIT "Waiting for approval.", signs it only once approved', async () => {
    await settle();
    const before = await tokenBalance(
      w.devnet.get('ETH').client,
      w.devnet.get('ETH').tokens.USDT.address,
      allowed,
    );
    const p = await payout('250');
    expect(p.status).toBe(200);
    expect(order(p.orderId)).toMatchObject({ status: 'INIT', reason: 'Waiting for approval.' });
    const status = await body<{ status: string; reason: string }>(
      await w.h.getSigned('/v1/order/status/{orderId}', m, p.orderId),
    );
    expect(status.data).toMatchObject({ status: 'INIT', reason: 'Waiting for approval.' });
    await settle();
    expect(attemptsOfOrder(w.h.db, order(p.orderId).id)).toHaveLength(0);
    expect((await listOperatorPayouts(w.h.rt, { awaitingApproval: true })).map((x) => x.orderId)).toEqual([
      p.orderId,
    ]);
    await approveOperatorPayout(w.h.rt, p.orderId);
    expect(order(p.orderId).reason).toBeNull();
    expect(await listOperatorPayouts(w.h.rt, { awaitingApproval: true })).toEqual([]);
    await settle();
    expect(order(p.orderId).status).toBe('SUCCESS');
    const after = await tokenBalance(
      w.devnet.get('ETH').client,
      w.devnet.get('ETH').tokens.USDT.address,
      allowed,
    );
    expect(after - before).toBe(250n * USDT);
  });

  it('ends a rejected payout FAILED with the operator’s reason, tells the merchant and releases its frozen balance', async () => {
    const reviewer = await w.h.merchant('V3');
    w.h.clock.advance(1000);
    await w.h.fund(reviewer, 'ETH', 'USDT', '300');
    const p = await payout('250', { merchant: reviewer });
    expect((await listBalances(w.h.db, { merchantId: reviewer.merchantId }))[0]).toMatchObject({
      available: 50n * USDT,
      frozen: 250n * USDT,
    });
    await rejectOperatorPayout(w.h.rt, p.orderId, 'receiver failed the sanctions check');
    expect(order(p.orderId, reviewer)).toMatchObject({
      status: 'FAILED',
      reason: 'receiver failed the sanctions check',
    });
    expect((await listBalances(w.h.db, { merchantId: reviewer.merchantId }))[0]).toMatchObject({
      available: 300n * USDT,
      frozen: 0n,
    });
    expect(eventsOf(p.orderId).at(-1)).toMatchObject({
      type: 'ORDER_FAILED',
      data: { status: 'FAILED', reason: 'receiver failed the sanctions check' },
    });
    await expect(approveOperatorPayout(w.h.rt, p.orderId)).rejects.toThrow(/is not waiting for approval/);
  });
});

describe('pause and resume', () => {
  it('keeps accepting payouts while signing is paused on a chain, and signs them once resumed', async () => {
    await settle();
    await settle('BSC');
    await pausePayouts(w.h.rt, 'ETH');
    const eth = await payout('5');
    const bsc = await payout('5', { chain: 'BSC' });
    expect(eth.status).toBe(200);
    await settle();
    await settle('BSC');
    expect(order(eth.orderId).status).toBe('INIT');
    expect(attemptsOfOrder(w.h.db, order(eth.orderId).id)).toHaveLength(0);
    expect(order(bsc.orderId).status).toBe('SUCCESS'); // only ETH is paused
    await resumePayouts(w.h.rt, 'ETH');
    await settle();
    expect(order(eth.orderId).status).toBe('SUCCESS');
  });

  it('pauses every chain at once, and resuming one chain leaves the others paused', async () => {
    expect(await pausePayouts(w.h.rt)).toEqual(['TRON', 'ETH', 'BSC', 'POLYGON', 'AVAX_C_CHAIN', 'SUI']);
    const eth = await payout('6');
    const bsc = await payout('6', { chain: 'BSC' });
    expect(await resumePayouts(w.h.rt, 'BSC')).toEqual(['TRON', 'ETH', 'POLYGON', 'AVAX_C_CHAIN', 'SUI']);
    await settle();
    await settle('BSC');
    expect(order(eth.orderId).status).toBe('INIT');
    expect(order(bsc.orderId).status).toBe('SUCCESS');
    expect(await resumePayouts(w.h.rt)).toEqual([]);
    await settle();
    expect(order(eth.orderId).status).toBe('SUCCESS');
  });
});
