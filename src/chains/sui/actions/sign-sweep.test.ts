import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MNEMONIC } from '../../../../test/helpers/harness.ts';
import { SUI, USDC } from '../../../../test/helpers/sui-chain.ts';
import { hot, sui, suiAdapterOn, usdcOn } from '../../../../test/helpers/sui-node.ts';
import { type FakeSuiNode, startFakeSuiNode } from '../../../devnet/sui/index.ts';
import { createKeyRing } from '../../../keys/key-ring.ts';
import { decodeRaw, encodeRaw } from '../payout-tx.ts';

const keys = createKeyRing(TEST_MNEMONIC);
const deposit = (i: number) => ({
  address: keys.depositAddress('sui', i),
  privateKey: keys.depositKey('sui', i),
});
const sponsor = { address: hot.address, privateKey: hot.privateKey };

let node: FakeSuiNode;
beforeAll(async () => {
  node = await startFakeSuiNode({ manualCheckpoints: true });
  await node.fundSui(hot.address, 5n * SUI);
  node.checkpoint();
});
afterAll(() => node?.close());

const balanceOf = (owner: string, type: string) => BigInt(node.state().balances[owner]?.[type]?.total ?? '0');

describe('SUI sweeps: sponsored by the hot wallet', () => {
  it('merges every USDC coin of a deposit into one transfer whose gas the hot wallet alone pays', async () => {
    const a = suiAdapterOn(node);
    const d = deposit(301);
    const usdc = usdcOn(node);
    for (const amount of [3n * USDC, 4n * USDC, 5n * USDC]) await node.mint(node.usdcType, d.address, amount);
    node.checkpoint();
    const quote = await a.sweepQuote?.({
      from: d.address,
      to: hot.address,
      hot: hot.address,
      token: usdc,
      margin: 1,
      delegate: false,
    });
    expect(quote).toMatchObject({
      mode: 'sponsor',
      amountBase: 12n * USDC,
      topUpBase: 0n,
      unsweepableBase: 0n,
    });
    expect(quote?.feeBase).toBeGreaterThan(0n);

    const hotSuiBefore = balanceOf(hot.address, node.suiType);
    const hotUsdcBefore = balanceOf(hot.address, node.usdcType);
    const signed = await a.signSweep?.({
      ...d,
      from: d.address,
      to: hot.address,
      token: usdc,
      nonce: null,
      sponsor,
    });
    expect(signed?.amountBase).toBe(12n * USDC);
    if (!signed) throw new Error('no sweep signed');
    expect(await a.broadcast(signed)).toEqual({ ok: true });
    node.checkpoint();
    expect(await a.lookup(signed.txHash)).toMatchObject({ state: 'mined', success: true });
    expect(balanceOf(d.address, node.usdcType)).toBe(0n);
    expect(balanceOf(hot.address, node.usdcType) - hotUsdcBefore).toBe(12n * USDC);
    // the deposit never held SUI and still holds none: the gas owner paid, exactly what feePaid reports
    expect(balanceOf(d.address, node.suiType)).toBe(0n);
    // merging deletes two coins, whose storage rebate goes to the gas owner: the fee may be negative
    const fee = await a.feePaid?.(signed.txHash);
    expect(fee).not.toBeNull();
    expect(hotSuiBefore - balanceOf(hot.address, node.suiType)).toBe(fee);
    expect(fee).toBeLessThanOrEqual(quote?.feeBase ?? 0n);
  });

  it('sweeps a SUI deposit whole (its coins are inputs, never gas)', async () => {
    const a = suiAdapterOn(node);
    const d = deposit(302);
    await node.fundSui(d.address, 2n * SUI);
    node.checkpoint();
    const signed = await a.signSweep?.({
      ...d,
      from: d.address,
      to: hot.address,
      token: sui,
      nonce: null,
      sponsor,
    });
    if (!signed) throw new Error('no sweep signed');
    expect(signed.amountBase).toBe(2n * SUI);
    expect(await a.broadcast(signed)).toEqual({ ok: true });
    node.checkpoint();
    expect(balanceOf(d.address, node.suiType)).toBe(0n);
  });

  it('the node refuses the sweep without the gas owner signature, and nothing moves', async () => {
    const a = suiAdapterOn(node);
    const d = deposit(303);
    await node.mint(node.usdcType, d.address, 2n * USDC);
    node.checkpoint();
    const signed = await a.signSweep?.({
      ...d,
      from: d.address,
      to: hot.address,
      token: usdcOn(node),
      nonce: null,
      sponsor,
    });
    if (!signed) throw new Error('no sweep signed');
    const { sponsorSignature: _dropped, ...senderOnly } = decodeRaw(signed.raw);
    const result = await a.broadcast({ txHash: signed.txHash, raw: encodeRaw(senderOnly) });
    expect(result.ok).toBe(false);
    node.checkpoint();
    expect(balanceOf(d.address, node.usdcType)).toBe(2n * USDC);
  });

  it('refuses to sign without a sponsor, or with a key that is not the deposit address', async () => {
    const a = suiAdapterOn(node);
    const d = deposit(304);
    const usdc = usdcOn(node);
    await expect(
      a.signSweep?.({ ...d, from: d.address, to: hot.address, token: usdc, nonce: null }),
    ).rejects.toMatchObject({
      code: 'bad_request',
    });
    await expect(
      a.signSweep?.({
        ...d,
        privateKey: deposit(305).privateKey,
        from: d.address,
        to: hot.address,
        token: usdc,
        nonce: null,
        sponsor,
      }),
    ).rejects.toMatchObject({ code: 'wrong_key' });
  });
});
