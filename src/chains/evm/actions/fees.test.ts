import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ethAdapterOn, ethDevnet, ethTokens, hot } from '../../../../test/helpers/evm-node.ts';
import type { EvmDevnet } from '../../../devnet/evm/devnet.ts';
import { feesPerGas } from './fees.ts';

let devnet: EvmDevnet;
beforeAll(async () => {
  devnet = await ethDevnet();
});
afterAll(() => devnet?.stop());

describe('EVM fees', () => {
  it('prices a payout pessimistically: 100,000 gas for a token, 21,000 for the native coin, at the max fee', async () => {
    const { usdt, eth } = ethTokens(devnet);
    const a = await ethAdapterOn(devnet, { eip1559: true });
    const fees = await feesPerGas(a.ctx);
    if (!('maxFeePerGas' in fees)) throw new Error('expected EIP-1559 fees');
    expect(fees.maxFeePerGas).toBeGreaterThan(0n);
    expect(await a.payoutFeeEstimate(hot.address, hot.address, usdt, 1n)).toBe(fees.maxFeePerGas * 100_000n);
    expect(await a.payoutFeeEstimate(hot.address, hot.address, eth, 1n)).toBe(fees.maxFeePerGas * 21_000n);
  });

  it('pays the legacy gas price plus 10 % on chains without EIP-1559', async () => {
    const a = await ethAdapterOn(devnet, { eip1559: false });
    const price = await devnet.get('ETH').client.getGasPrice();
    expect(await feesPerGas(a.ctx)).toEqual({ gasPrice: (price * 11n) / 10n });
  });
});
