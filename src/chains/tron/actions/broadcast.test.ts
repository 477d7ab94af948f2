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

describe('TRON broadcast', () => {
  it('treats a broadcast whose answer was lost as sent: sending again is a duplicate, not a second payment', async () => {
    const a = await adapterFor({ timeoutMs: 300 });
    const to = TronWeb.address.fromPrivateKey('7a'.repeat(32)) as string;
    const signed = await a.signPayout({
      privateKey: hot.privateKey,
      from: HOT,
      to,
      token: usdt,
      amountBase: 7n,
      nonce: null,
    });
    node.fail({ mode: 'timeout', count: 1, paths: ['broadcasttransaction'], afterProcessing: true });
    expect(await a.broadcast(signed)).toEqual({ ok: true }); // the retry answers DUP_TRANSACTION_ERROR
    node.mine(1);
    expect(node.trc20Balance(USDT, to)).toBe(7n);
  });
});
