import { type Address, encodeFunctionData } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customer, ethAdapterOn, ethDevnet, ethTokens, hot } from '../../../../test/helpers/evm-node.ts';
import type { EvmDevnet } from '../../../devnet/evm/devnet.ts';
import { ERC20_ABI } from '../erc20.ts';

let devnet: EvmDevnet;
beforeAll(async () => {
  devnet = await ethDevnet({ noMining: true });
});
afterAll(() => devnet?.stop());

const receiver = '0x00000000000000000000000000000000000000E5' as Address;

describe('EVM lookup', () => {
  it('follows a transaction from unknown to pending to mined in its block', async () => {
    const c = devnet.get('ETH');
    const { usdc } = ethTokens(devnet);
    const a = await ethAdapterOn(devnet);
    const nonce = (await a.nextNonce?.(hot.address)) as number;
    const signed = await a.signPayout({
      privateKey: hot.privateKey,
      from: hot.address,
      to: receiver,
      token: usdc,
      amountBase: 1n,
      nonce,
    });
    expect(await a.lookup(signed.txHash)).toEqual({ state: 'unknown' });
    await a.broadcast(signed);
    expect(await a.lookup(signed.txHash)).toEqual({ state: 'pending' });
    await c.client.mine({ blocks: 1 });
    const block = await c.client.getBlock();
    expect(await a.lookup(signed.txHash)).toEqual({
      state: 'mined',
      blockNum: Number(block.number),
      blockHash: block.hash,
      timestamp: Number(block.timestamp),
      success: true,
    });
  });

  it('reports a mined transaction that reverted as failed, with the reason', async () => {
    const c = devnet.get('ETH');
    const a = await ethAdapterOn(devnet);
    const hash = await c.client.sendTransaction({
      account: customer,
      chain: c.client.chain,
      to: c.tokens.USDC.address,
      gas: 100_000n, // no estimate: the node would refuse to estimate a call that reverts
      data: encodeFunctionData({ abi: ERC20_ABI, functionName: 'transfer', args: [receiver, 10n ** 30n] }),
    });
    await c.client.mine({ blocks: 1 });
    expect(await a.lookup(hash)).toMatchObject({
      state: 'mined',
      success: false,
      error: 'The transaction reverted.',
    });
  });
});
