import { type Address, parseTransaction } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ethAdapterOn, ethDevnet, ethTokens, hot } from '../../../../test/helpers/evm-node.ts';
import type { EvmDevnet } from '../../../devnet/evm/devnet.ts';

let devnet: EvmDevnet;
beforeAll(async () => {
  devnet = await ethDevnet({ noMining: true });
});
afterAll(() => devnet?.stop());

const receiver = '0x00000000000000000000000000000000000000A7' as Address;

async function mineAtBaseFee(wei: bigint) {
  const c = devnet.get('ETH');
  await c.client.request({
    method: 'anvil_setNextBlockBaseFeePerGas',
    params: [`0x${wei.toString(16)}`],
  } as never);
  await c.client.mine({ blocks: 1 });
}

describe('EVM reprice', () => {
  it('replaces a stuck transaction at the same nonce paying today’s fee, at least 12.5 % more, never above the cap', async () => {
    const { usdt } = ethTokens(devnet);
    const a = await ethAdapterOn(devnet, { eip1559: true });
    const nonce = (await a.nextNonce?.(hot.address)) as number;
    const stuck = await a.signPayout({
      privateKey: hot.privateKey,
      from: hot.address,
      to: receiver,
      token: usdt,
      amountBase: 1n,
      nonce,
    });
    await a.broadcast(stuck);
    const input = { privateKey: hot.privateKey, raw: stuck.raw, capWei: 10n ** 18n };
    expect(await a.reprice?.(input)).toBeNull(); // the fee did not rise: nothing to offer
    const oldMax = stuck.maxFeePerGas as bigint;
    await mineAtBaseFee(oldMax * 4n); // the network's fee passes what it offers: left out of the block
    const replacement = await a.reprice?.(input);
    if (!replacement) throw new Error('expected a replacement');
    const old = parseTransaction(stuck.raw as `0x${string}`);
    const next = parseTransaction(replacement.raw as `0x${string}`);
    expect(next).toMatchObject({ nonce, to: old.to, data: old.data, gas: old.gas });
    expect(replacement.maxFeePerGas).toBeGreaterThanOrEqual((oldMax * 1125n + 999n) / 1000n);
    expect(replacement.txHash).not.toBe(stuck.txHash);
    expect(await a.reprice?.({ ...input, capWei: oldMax })).toBeNull(); // the cap leaves no room
    await expect(a.reprice?.({ ...input, raw: '0x02' })).rejects.toThrow();
  });
});
