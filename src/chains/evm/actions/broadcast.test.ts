import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ethAdapterOn, ethDevnet, ethTokens, hot } from '../../../../test/helpers/evm-node.ts';
import type { EvmDevnet } from '../../../devnet/evm/devnet.ts';

let devnet: EvmDevnet;
beforeAll(async () => {
  devnet = await ethDevnet({ noMining: true });
});
afterAll(() => devnet?.stop());

const receiver = '0x00000000000000000000000000000000000000D4' as Address;

describe('EVM broadcast', () => {
  it('counts bytes the node already has as sent, and a transaction whose nonce was used as refused for good', async () => {
    const c = devnet.get('ETH');
    const { usdt } = ethTokens(devnet);
    const a = await ethAdapterOn(devnet);
    const nonce = (await a.nextNonce?.(hot.address)) as number;
    const base = { privateKey: hot.privateKey, from: hot.address, to: receiver, token: usdt, nonce };
    const first = await a.signPayout({ ...base, amountBase: 1n });
    expect(await a.broadcast(first)).toEqual({ ok: true });
    expect(await a.broadcast(first)).toEqual({ ok: true }); // already known: not a second payment
    expect(await a.nextNonce?.(hot.address)).toBe(nonce + 1); // pending counts
    await c.client.mine({ blocks: 1 });
    const rival = await a.signPayout({ ...base, amountBase: 2n });
    expect(await a.broadcast(rival)).toMatchObject({ ok: false, permanent: true, error: /nonce/i });
  });
});
