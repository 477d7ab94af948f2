import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ethAdapterOn, ethDevnet } from '../../../../test/helpers/evm-node.ts';
import type { EvmDevnet } from '../../../devnet/evm/devnet.ts';

let devnet: EvmDevnet;
beforeAll(async () => {
  devnet = await ethDevnet();
  await devnet.get('ETH').client.mine({ blocks: 100 });
});
afterAll(() => devnet?.stop());

describe('EVM heads', () => {
  it('calls head − N + 1 final under N confirmations, lowered by a confirmation floor', async () => {
    const head = Number(await devnet.get('ETH').client.getBlockNumber({ cacheTime: 0 }));
    expect(await (await ethAdapterOn(devnet, { confirmations: 12 })).heads()).toEqual({
      head,
      final: head - 11,
    });
    expect(await (await ethAdapterOn(devnet, { confirmations: 1 })).heads()).toEqual({ head, final: head });
    expect(await (await ethAdapterOn(devnet, { confirmations: 3, confirmationFloor: 20 })).heads()).toEqual({
      head,
      final: head - 19,
    });
  });

  it('takes the chain’s `finalized` block under `finalized`', async () => {
    const client = devnet.get('ETH').client;
    const finalized = Number((await client.getBlock({ blockTag: 'finalized' })).number);
    const head = Number(await client.getBlockNumber({ cacheTime: 0 }));
    expect(finalized).toBeLessThan(head); // anvil finalizes two epochs behind
    expect(await (await ethAdapterOn(devnet, { confirmations: 'finalized' })).heads()).toEqual({
      head,
      final: finalized,
    });
  });
});
