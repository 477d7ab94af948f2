import { bcs } from '@mysten/sui/bcs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MNEMONIC } from '../../../../test/helpers/harness.ts';
import { SUI, USDC } from '../../../../test/helpers/sui-chain.ts';
import { hot, receiver, suiAdapterOn, usdcOn } from '../../../../test/helpers/sui-node.ts';
import type { ActiveChain } from '../../../config/active-chain.ts';
import { type FakeSuiNode, startFakeSuiNode } from '../../../devnet/sui/index.ts';
import { createKeyRing } from '../../../keys/key-ring.ts';
import { decodeRaw, ownedInputs } from '../payout-tx.ts';
import { payoutFeeCeiling } from './fee-estimate.ts';

let node: FakeSuiNode;
beforeAll(async () => {
  node = await startFakeSuiNode({ manualCheckpoints: true });
});
afterAll(() => node?.close());
const adapter = (over: Partial<ActiveChain> = {}) => suiAdapterOn(node, over);
const usdc = () => usdcOn(node);

describe('SUI signPayout', () => {
  it('estimates a fee no smaller than the budget it then signs, and never puts a coin version in two sent transactions', async () => {
    await node.fundSui(hot.address, 5n * SUI); // one SUI coin
    await node.mint(node.usdcType, hot.address, 50n * USDC);
    node.checkpoint();
    const a = adapter();
    const estimate = await a.payoutFeeEstimate(hot.address, receiver, usdc(), 10n * USDC);
    expect(estimate).toBe(payoutFeeCeiling(1000n));
    const base = { privateKey: hot.privateKey, from: hot.address, to: receiver, nonce: null };
    const first = await a.signPayout({ ...base, token: usdc(), amountBase: 10n * USDC });
    const budget = BigInt(bcs.TransactionData.parse(decodeRaw(first.raw).bytes).V1!.gasData.budget);
    expect(budget).toBeLessThanOrEqual(estimate);
    expect(first).toMatchObject({ nonce: null, validUntil: null });
    expect(first.txHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{43,44}$/);
    // the first is sent but the node does not answer: it may still execute, so a second payout,
    // which would need the same SUI coin version, is not signed (no equivocation)
    node.fail({ mode: 'unavailable', methods: ['ExecuteTransaction'] });
    const impatient = suiAdapterOn(node, {}, { baseDelayMs: 1 });
    await expect(impatient.broadcast(first)).rejects.toThrow(/UNAVAILABLE/);
    node.heal();
    await expect(impatient.signPayout({ ...base, token: usdc(), amountBase: USDC })).rejects.toThrow(
      /held by a payout in flight/,
    );
    expect((await impatient.broadcast(first)).ok).toBe(true);
    const second = await impatient.signPayout({ ...base, token: usdc(), amountBase: USDC });
    const used = new Set(ownedInputs(decodeRaw(first.raw).bytes).map((r) => `${r.objectId}@${r.version}`));
    expect(ownedInputs(decodeRaw(second.raw).bytes).some((r) => used.has(`${r.objectId}@${r.version}`))).toBe(
      false,
    );
    expect((await impatient.broadcast(second)).ok).toBe(true);
    node.checkpoint();
  });

  it('refuses for good (ChainError payout_rejected) a token amount the wallet does not hold, and a wrong key', async () => {
    const a = adapter();
    const base = { privateKey: hot.privateKey, from: hot.address, to: receiver, nonce: null };
    await expect(a.signPayout({ ...base, token: usdc(), amountBase: 10_000n * USDC })).rejects.toMatchObject({
      name: 'ChainError',
      code: 'payout_rejected',
    });
    const other = createKeyRing(TEST_MNEMONIC).depositKey('sui', 0);
    await expect(
      a.signPayout({ ...base, privateKey: other, token: usdc(), amountBase: USDC }),
    ).rejects.toThrow(/does not match the hot wallet/);
  });
});
