import { TronWeb } from 'tronweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOT, tronGenesis, USDT } from '../../../../test/helpers/tron-chain.ts';
import { hot, tronAdapterOn, usdt } from '../../../../test/helpers/tron-node.ts';
import { type FakeTronNode, startFakeTronNode } from '../../../devnet/tron/index.ts';

let node: FakeTronNode;
beforeAll(async () => {
  node = await startFakeTronNode({ blockIntervalMs: 0, genesis: tronGenesis() });
});
afterAll(() => node?.close());
const adapterFor = (options: Parameters<typeof tronAdapterOn>[1] = {}) => tronAdapterOn(node, options);

describe('TRON signPayout', () => {
  it('signs a payout the node accepts, broadcasts it twice harmlessly, and follows it to a successful lookup', async () => {
    const a = await adapterFor();
    const to = TronWeb.address.fromPrivateKey('79'.repeat(32)) as string;
    const signed = await a.signPayout({
      privateKey: hot.privateKey,
      from: HOT,
      to,
      token: usdt,
      amountBase: 2_000_000n,
      nonce: null,
    });
    expect(signed.nonce).toBeNull();
    expect(signed.validUntil).toBe(node.state().headTimestamp + 180_000);
    expect(await a.lookup(signed.txHash)).toEqual({ state: 'unknown' });
    expect(await a.broadcast(signed)).toEqual({ ok: true });
    expect(await a.broadcast(signed)).toEqual({ ok: true }); // DUP_TRANSACTION_ERROR
    node.mine(1);
    expect(await a.lookup(signed.txHash)).toEqual({
      state: 'mined',
      blockNum: node.head(),
      blockHash: node.state().headBlockId,
      timestamp: Math.floor(node.state().headTimestamp / 1000),
      success: true,
    });
    expect(node.trc20Balance(USDT, to)).toBe(2_000_000n);
    await expect(
      a.signPayout({
        privateKey: Buffer.alloc(32, 1),
        from: HOT,
        to,
        token: usdt,
        amountBase: 1n,
        nonce: null,
      }),
    ).rejects.toThrow(/does not match the hot wallet/);
  });

  it('rejects for good a payout to something that is not a TRON address', async () => {
    const a = await adapterFor();
    await expect(
      a.signPayout({
        privateKey: hot.privateKey,
        from: HOT,
        to: '0x1111111111111111111111111111111111111111x',
        token: usdt,
        amountBase: 1n,
        nonce: null,
      }),
    ).rejects.toMatchObject({ name: 'ChainError', code: 'payout_rejected' });
  });
});
