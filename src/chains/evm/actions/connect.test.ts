import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ethAdapterOn } from '../../../../test/helpers/evm-node.ts';
import { type EvmDevnet, startEvmDevnet } from '../../../devnet/evm/devnet.ts';

let devnet: EvmDevnet;
beforeAll(async () => {
  devnet = await startEvmDevnet({ chains: ['ETH', 'BSC'] });
});
afterAll(() => devnet?.stop());

describe('EVM connect', () => {
  it('accepts the RPC of the configured chain id', async () => {
    await expect((await ethAdapterOn(devnet)).connect()).resolves.toBeUndefined();
  });

  it('refuses an RPC that serves another chain id (ChainError wrong_network)', async () => {
    const adapter = await ethAdapterOn(devnet, { rpc: [devnet.get('BSC').url] });
    await expect(adapter.connect()).rejects.toMatchObject({ name: 'ChainError', code: 'wrong_network' });
    await expect(adapter.connect()).rejects.toThrow(/serves chain id 56, but 1 is configured/);
  });
});
