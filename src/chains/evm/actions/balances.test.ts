import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customer, ethAdapterOn, ethDevnet, ethTokens, hot } from '../../../../test/helpers/evm-node.ts';
import type { EvmDevnet } from '../../../devnet/evm/devnet.ts';
import { tokenBalance, transferToken } from '../../../devnet/evm/tokens.ts';
import { BALANCE_BATCH_SIZE } from './balances.ts';

let devnet: EvmDevnet;
beforeAll(async () => {
  devnet = await ethDevnet();
});
afterAll(() => devnet?.stop());

describe('EVM balances (batched)', () => {
  it('reads token and native balances of many addresses in order, equal to one-by-one reads', async () => {
    const c = devnet.get('ETH');
    const { usdt, eth } = ethTokens(devnet);
    const a = await ethAdapterOn(devnet);
    const addresses = Array.from(
      { length: BALANCE_BATCH_SIZE + 7 },
      (_, i) => `0x${(i + 1).toString(16).padStart(40, '0')}`,
    );
    await transferToken(c.client, {
      from: customer,
      token: c.tokens.USDT.address,
      to: addresses[3] as Address,
      amount: 123n,
    });
    addresses.push(hot.address);
    const reads = addresses.flatMap((address) => [
      { address, token: usdt },
      { address, token: eth },
    ]);
    const got = await a.balances?.(reads, null);
    expect(got?.length).toBe(reads.length);
    expect(got?.[6]).toBe(123n);
    const last = addresses.length - 1;
    expect(got?.[2 * last]).toBe(await tokenBalance(c.client, c.tokens.USDT.address, hot.address as Address));
    expect(got?.[2 * last + 1]).toBe(await c.client.getBalance({ address: hot.address as Address }));
    expect(got?.filter((b) => b > 0n).length).toBeGreaterThanOrEqual(3);
  });

  it('reads as of an earlier block when asked, not the latest', async () => {
    const c = devnet.get('ETH');
    const { usdt } = ethTokens(devnet);
    const a = await ethAdapterOn(devnet);
    const to = `0x${'77'.repeat(20)}` as Address;
    const before = Number(await c.client.getBlockNumber());
    await transferToken(c.client, { from: customer, token: c.tokens.USDT.address, to, amount: 5n });
    expect(await a.balances?.([{ address: to, token: usdt }], before)).toEqual([0n]);
    expect(await a.balances?.([{ address: to, token: usdt }], null)).toEqual([5n]);
  });
});
