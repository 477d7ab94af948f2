import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ethAdapterOn, ethDevnet } from '../../../../test/helpers/evm-node.ts';
import type { EvmDevnet } from '../../../devnet/evm/devnet.ts';

let devnet: EvmDevnet;
beforeAll(async () => {
  devnet = await ethDevnet();
});
afterAll(() => devnet?.stop());

describe('EVM block', () => {
  it('reads a block as {number, hash, unix seconds}, and null above the head', async () => {
    const client = devnet.get('ETH').client;
    const latest = await client.getBlock();
    const a = await ethAdapterOn(devnet);
    expect(await a.block(Number(latest.number))).toEqual({
      number: Number(latest.number),
      hash: latest.hash,
      timestamp: Number(latest.timestamp),
    });
    expect(await a.block(Number(latest.number) + 1)).toBeNull();
  });
});
