import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ethAdapterOn, ethDevnet, ethTokens, hot } from '../../../../test/helpers/evm-node.ts';
import { spendOfSigned } from '../../../../test/helpers/spends.ts';
import type { EvmDevnet } from '../../../devnet/evm/devnet.ts';

let devnet: EvmDevnet;
beforeAll(async () => {
  devnet = await ethDevnet();
});
afterAll(() => devnet?.stop());

const receiver = '0x00000000000000000000000000000000000000F6' as Address;

describe('EVM judgeSlot', () => {
  it('judges a nonce: open until used, landed by our transaction, dead when another recorded one used it, unexplained otherwise', async () => {
    const c = devnet.get('ETH');
    const { usdt } = ethTokens(devnet);
    const a = await ethAdapterOn(devnet);
    const nonce = (await a.nextNonce?.(hot.address)) as number;
    const base = { privateKey: hot.privateKey, from: hot.address, to: receiver, token: usdt, nonce };
    const ours = await a.signPayout({ ...base, amountBase: 1n });
    const judge = (recorded: (typeof ours)[]) =>
      a.judgeSlot({
        from: hot.address,
        attempts: [spendOfSigned(ours)],
        recorded: recorded.map(spendOfSigned),
      });
    expect(await judge([])).toMatchObject({
      state: 'open',
      detail: expect.stringMatching(/is not used yet/),
    });

    // another transaction Kassa signed (for another purpose) takes the nonce
    const rival = await a.signPayout({ ...base, amountBase: 2n });
    await a.broadcast(rival);
    await c.client.waitForTransactionReceipt({ hash: rival.txHash as `0x${string}` });
    expect(await judge([rival])).toMatchObject({
      state: 'dead',
      proof: `nonce ${nonce} was used by Kassa's transaction ${rival.txHash}`,
    });
    expect(await judge([])).toMatchObject({ state: 'unexplained' });
    expect(await a.judgeSlot({ from: hot.address, attempts: [spendOfSigned(rival)], recorded: [] })).toEqual({
      state: 'landed',
      txHash: rival.txHash,
    });
    expect(await a.judgeSlot({ from: hot.address, attempts: [], recorded: [] })).toMatchObject({
      state: 'open',
    });
  });
});
