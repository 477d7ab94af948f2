import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER, HOT, tronGenesis } from '../../../../test/helpers/tron-chain.ts';
import { tronAdapterOn, trx, usdt } from '../../../../test/helpers/tron-node.ts';
import { type FakeTronNode, startFakeTronNode } from '../../../devnet/tron/index.ts';

let node: FakeTronNode;
beforeAll(async () => {
  node = await startFakeTronNode({ blockIntervalMs: 0, genesis: tronGenesis() });
});
afterAll(() => node?.close());
const adapterFor = (options: Parameters<typeof tronAdapterOn>[1] = {}) => tronAdapterOn(node, options);

describe('TRON payoutFeeEstimate', () => {
  it('prices a payout pessimistically: a new holder when the recipient is unknown, staked resources first, activation for TRX', async () => {
    const a = await adapterFor();
    // hot wallet: no staked energy; a new holder needs 29 650 energy at 100 sun, plus 350 bytes burnt
    expect(await a.payoutFeeEstimate(HOT, HOT, usdt, 1n)).toBe(2_965_000n + 350_000n);
    expect(await a.payoutFeeEstimate(HOT, CUSTOMER, usdt, 1n)).toBe(1_465_000n + 350_000n); // an existing holder
    expect(await a.payoutFeeEstimate(HOT, HOT, trx, 1n)).toBe(1_100_000n); // unknown: assume activation
    expect(await a.payoutFeeEstimate(HOT, CUSTOMER, trx, 1n)).toBe(300_000n);
    expect(await a.payoutFeeEstimate(HOT, HOT, usdt, 10n ** 15n)).toBe(13_028_500n + 350_000n); // reverts: worst case
  });
});
