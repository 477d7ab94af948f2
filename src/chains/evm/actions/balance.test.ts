import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ethAdapterOn, ethDevnet, ethTokens, hot } from '../../../../test/helpers/evm-node.ts';
import type { EvmDevnet } from '../../../devnet/evm/devnet.ts';
import { tokenBalance } from '../../../devnet/evm/tokens.ts';

let devnet: EvmDevnet;
beforeAll(async () => {
  devnet = await ethDevnet();
});
afterAll(() => devnet?.stop());

describe('EVM balance', () => {
  it('reads ERC-20 and native balances exactly, and zero for an address that holds nothing', async () => {
    const c = devnet.get('ETH');
    const { usdt, eth } = ethTokens(devnet);
    const a = await ethAdapterOn(devnet);
    const from = hot.address as Address;
    expect(await a.balance(from, usdt)).toBe(await tokenBalance(c.client, c.tokens.USDT.address, from));
    expect(await a.balance(from, usdt)).toBe(1_000_000n * 10n ** 6n);
    expect(await a.balance(from, eth)).toBe(await c.client.getBalance({ address: from }));
    const nobody = `0x${'42'.repeat(20)}`;
    expect(await a.balance(nobody, usdt)).toBe(0n);
    expect(await a.balance(nobody, eth)).toBe(0n);
  });
});
