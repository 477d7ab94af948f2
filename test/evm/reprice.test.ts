import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { attemptsOfOrder } from '../../src/db/repositories/payouts.ts';
import { tokenBalance } from '../../src/devnet/evm/tokens.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { body } from '../helpers/harness.ts';

/**
 * Re-pricing a stuck EVM payout (anvil without automine, the base fee driven by the test): the
 * replacement uses the same nonce, pays at least the 12.5 % nodes require and today's fee, never
 * more than payouts.maxFeeBump times the first transaction's fee, and only one of them lands.
 */
let w: EvmWorld;
let m: MerchantCreated;
let n = 0;
const USDT = 1_000_000n;

beforeAll(async () => {
  w = await evmWorld(['ETH'], {
    noMining: true,
    overrides: { payouts: { repriceAfterSeconds: 60, maxFeeBump: 3 } },
  });
  m = await w.h.merchant('V3');
  await w.h.fund(m, 'ETH', 'USDT', '1000');
});
afterAll(() => w?.close());

const c = () => w.devnet.get('ETH');

async function payout(amount: string, to: Address) {
  const orderId = `rp-${++n}`;
  const res = await w.h.post('/v1/order/createPayout', m, {
    amount,
    symbol: 'USDT',
    chain: 'ETH',
    orderId,
    receiveAddress: to,
  });
  expect((await body(res)).code).toBe(200);
  return orderId;
}

const order = (orderId: string) => {
  const o = findOrderByMerchantOrderId(w.h.db, m.merchantId, orderId);
  if (!o) throw new Error(`no order ${orderId}`);
  return o;
};
const attempts = (orderId: string) => attemptsOfOrder(w.h.db, order(orderId).id);

/** Mines one block whose base fee is `wei` (what a congested network does to a waiting transaction). */
async function mineAtBaseFee(wei: bigint) {
  await c().client.request({
    method: 'anvil_setNextBlockBaseFeePerGas',
    params: [`0x${wei.toString(16)}`],
  } as never);
  await c().client.mine({ blocks: 1 });
}

const pendingCount = async () =>
  Number(((await c().client.request({ method: 'txpool_status' } as never)) as { pending: string }).pending);

describe('a stuck EVM payout is re-priced in its slot', () => {
  it('replaces it at the same nonce once it waited repriceAfterSeconds while the fee rose past it; one lands', async () => {
    const to = '0x9999999999999999999999999999999999999991' as Address;
    const id = await payout('8', to);
    await w.payouts('ETH');
    const [first] = attempts(id);
    const fee1 = BigInt(first?.maxFeePerGas ?? '0');
    expect(fee1).toBeGreaterThan(0n);
    await mineAtBaseFee(fee1 * 2n); // the network's fee passes what the payout offers: it is left out
    expect(order(id).status).toBe('PENDING');
    await w.payouts('ETH');
    expect(attempts(id)).toHaveLength(1); // not waiting long enough yet
    w.h.clock.advance(61_000);
    await w.payouts('ETH');
    const [a, b] = attempts(id);
    expect(b).toMatchObject({ nonce: a?.nonce, replacesAttempt: a?.id, status: 'broadcast' });
    const fee2 = BigInt(b?.maxFeePerGas ?? '0');
    expect(fee2).toBeGreaterThan(fee1 * 2n);
    expect(fee2).toBeLessThanOrEqual(fee1 * 3n);
    expect(fee2 * 1000n).toBeGreaterThanOrEqual(fee1 * 1125n);
    expect(order(id).transaction?.txid).toBe(b?.txHash);
    expect(await pendingCount()).toBe(1); // the node replaced the first in its pool
    await mineAtBaseFee(fee1 * 2n);
    await w.payouts('ETH');
    expect(order(id).status).toBe('PENDING_CONFIRMATION');
    await w.mine('ETH', 3);
    await w.payouts('ETH');
    expect(order(id)).toMatchObject({
      status: 'SUCCESS',
      transaction: { txid: b?.txHash, status: 'SUCCESS' },
    });
    expect(attempts(id).map((x) => x.status)).toEqual(['replaced', 'final']);
    expect(await tokenBalance(c().client, c().tokens.USDT.address, to)).toBe(8n * USDT);
  });

  it('never offers more than maxFeeBump times the first fee, and waits at the cap until the network comes down', async () => {
    const to = '0x9999999999999999999999999999999999999992' as Address;
    const id = await payout('9', to);
    await w.payouts('ETH');
    const fee1 = BigInt(attempts(id)[0]?.maxFeePerGas ?? '0');
    await mineAtBaseFee(fee1 * 10n);
    w.h.clock.advance(61_000);
    await w.payouts('ETH');
    expect(attempts(id)).toHaveLength(2);
    expect(BigInt(attempts(id)[1]?.maxFeePerGas ?? '0')).toBe(fee1 * 3n); // capped
    await mineAtBaseFee(fee1 * 10n);
    w.h.clock.advance(61_000);
    await w.payouts('ETH');
    await w.payouts('ETH');
    expect(attempts(id)).toHaveLength(2); // at the cap: nothing higher is signed
    expect(order(id).status).toBe('PENDING');
    await mineAtBaseFee(fee1);
    await w.payouts('ETH');
    await w.mine('ETH', 3);
    await w.payouts('ETH');
    expect(order(id).status).toBe('SUCCESS');
    expect(attempts(id).map((x) => x.status)).toEqual(['replaced', 'final']);
    expect(await tokenBalance(c().client, c().tokens.USDT.address, to)).toBe(9n * USDT);
  });
});
