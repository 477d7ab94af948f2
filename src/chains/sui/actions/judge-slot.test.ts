import { toBase58 } from '@mysten/sui/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spendOfSigned } from '../../../../test/helpers/spends.ts';
import { SUI } from '../../../../test/helpers/sui-chain.ts';
import { hot, receiver, sui, suiAdapterOn } from '../../../../test/helpers/sui-node.ts';
import type { ActiveChain } from '../../../config/active-chain.ts';
import { type FakeSuiNode, startFakeSuiNode } from '../../../devnet/sui/index.ts';

let node: FakeSuiNode;
beforeAll(async () => {
  node = await startFakeSuiNode({ manualCheckpoints: true });
  await node.fundSui(hot.address, 5n * SUI); // SUI for gas
  node.checkpoint();
});
afterAll(() => node?.close());
const adapter = (over: Partial<ActiveChain> = {}) => suiAdapterOn(node, over);

describe('SUI judgeSlot, broadcast and lookup', () => {
  it('reports a digest the node never saw as unknown, and proves nothing about bytes it cannot read', async () => {
    const digest = toBase58(new Uint8Array(32).fill(9));
    expect(await adapter().lookup(digest)).toEqual({ state: 'unknown' });
    const unreadable = { txHash: digest, raw: 'not a transaction', nonce: null, validUntil: null };
    expect(
      await adapter().judgeSlot({ from: hot.address, attempts: [unreadable], recorded: [] }),
    ).toMatchObject({
      state: 'open',
    });
  });

  it('answers a broadcast of bytes whose inputs moved on as permanent, and a mined lookup with its checkpoint', async () => {
    const a = adapter();
    const base = { privateKey: hot.privateKey, from: hot.address, to: receiver, nonce: null };
    const signed = await a.signPayout({ ...base, token: sui, amountBase: 1000n });
    const b = adapter(); // another process: signs the same coin version (it never saw the first)
    const rival = await b.signPayout({ ...base, token: sui, amountBase: 2000n });
    expect((await b.broadcast(rival)).ok).toBe(true);
    const refused = await a.broadcast(signed);
    expect(refused).toMatchObject({ ok: false, permanent: true });
    const attempts = [spendOfSigned(signed)];
    // the coin was consumed by a transaction Kassa recorded: provably dead
    expect(
      await a.judgeSlot({ from: hot.address, attempts, recorded: [spendOfSigned(rival)] }),
    ).toMatchObject({
      state: 'dead',
      proof: expect.stringContaining(`consumed by Kassa's transaction ${rival.txHash}`),
    });
    // without that record, whoever consumed it is unknown: the payout would be held
    expect(await a.judgeSlot({ from: hot.address, attempts, recorded: [] })).toMatchObject({
      state: 'unexplained',
    });
    // and the one that executed is, of course, landed
    expect(
      await b.judgeSlot({ from: hot.address, attempts: [spendOfSigned(rival)], recorded: attempts }),
    ).toEqual({ state: 'landed', txHash: rival.txHash });
    expect(await b.lookup(rival.txHash)).toEqual({ state: 'pending' });
    const sealed = node.checkpoint();
    expect(await b.lookup(rival.txHash)).toEqual({
      state: 'mined',
      blockNum: Number(sealed.sequenceNumber),
      blockHash: sealed.digest,
      timestamp: expect.any(Number),
      success: true,
    });
  });
});
