import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOT, SUN, tronGenesis } from '../../../../test/helpers/tron-chain.ts';
import { tronAdapterOn, trx, usdt, watched } from '../../../../test/helpers/tron-node.ts';
import { type FakeTronNode, startFakeTronNode } from '../../../devnet/tron/index.ts';

let node: FakeTronNode;
beforeAll(async () => {
  node = await startFakeTronNode({ blockIntervalMs: 0, genesis: tronGenesis() });
});
afterAll(() => node?.close());
const adapterFor = (options: Parameters<typeof tronAdapterOn>[1] = {}) => tronAdapterOn(node, options);

describe('TRON balance', () => {
  it('reads TRX and USDT balances exactly', async () => {
    const a = await adapterFor();
    expect(await a.balance(HOT, trx)).toBe(node.trxBalance(HOT));
    expect(await a.balance(HOT, usdt)).toBe(1_000_000n * SUN);
    expect(await a.balance(watched, usdt)).toBe(0n);
    expect(await a.balance(watched, trx)).toBe(0n);
  });
});
