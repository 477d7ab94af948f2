import { TronWeb } from 'tronweb';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_MNEMONIC } from '../../../../test/helpers/harness.ts';
import { HOT, SUN, tronGenesis, USDT } from '../../../../test/helpers/tron-chain.ts';
import { customerPaysOn, hot, tronAdapterOn, trx, usdt } from '../../../../test/helpers/tron-node.ts';
import { type FakeTronNode, startFakeTronNode } from '../../../devnet/tron/index.ts';
import { createKeyRing } from '../../../keys/key-ring.ts';
import type { SignedPayout } from '../../port.ts';

const keys = createKeyRing(TEST_MNEMONIC);
const deposit = (i: number) => ({
  address: keys.depositAddress('tron', i),
  privateKey: keys.depositKey('tron', i),
});

let node: FakeTronNode;
afterEach(() => node?.close());

async function land(a: Awaited<ReturnType<typeof tronAdapterOn>>, signed: SignedPayout) {
  expect(await a.broadcast(signed)).toEqual({ ok: true });
  node.mine(1);
  expect(await a.lookup(signed.txHash)).toMatchObject({ state: 'mined', success: true });
}

describe('TRON sweeps: quote, top-up or lent energy, sign, fee paid', () => {
  it('burns TRX the hot wallet sent: the top-up activates the address and pays exactly the energy', async () => {
    node = await startFakeTronNode({ blockIntervalMs: 0, genesis: tronGenesis() });
    const a = await tronAdapterOn(node);
    const d = deposit(201);
    await customerPaysOn(node, d.address, 12_000_000n);
    node.mine(1);
    const quote = await a.sweepQuote?.({
      from: d.address,
      to: HOT,
      hot: HOT,
      token: usdt,
      margin: 1,
      delegate: true,
    });
    // the hot wallet holds USDT already: 14 650 energy at 100 sun; the new account's free bandwidth pays the bytes
    expect(quote).toMatchObject({
      mode: 'topup',
      amountBase: 12_000_000n,
      needBase: 1_465_000n,
      topUpBase: 1_465_000n,
      haveBase: 0n,
    });
    expect(quote?.feeBase).toBe(1_465_000n + 1_100_000n); // plus the activation the hot wallet pays
    await expect(
      a.signSweep?.({ ...d, from: d.address, to: HOT, token: usdt, nonce: null }),
    ).rejects.toMatchObject({
      code: 'wallet_underfunded',
    });
    const hotBefore = node.trxBalance(HOT);
    await land(
      a,
      await a.signPayout({
        privateKey: hot.privateKey,
        from: HOT,
        to: d.address,
        token: trx,
        amountBase: quote?.topUpBase as bigint,
        nonce: null,
      }),
    );
    expect(hotBefore - node.trxBalance(HOT)).toBe(quote?.feeBase);
    const usdtBefore = node.trc20Balance(USDT, HOT);
    const sweep = await a.signSweep?.({ ...d, from: d.address, to: HOT, token: usdt, nonce: null });
    expect(sweep).toMatchObject({ amountBase: 12_000_000n, nonce: null });
    await land(a, sweep as SignedPayout);
    expect(node.trc20Balance(USDT, HOT) - usdtBefore).toBe(12_000_000n);
    expect(node.trxBalance(d.address)).toBe(0n);
    expect(await a.feePaid?.(sweep?.txHash as string)).toBe(1_465_000n);
    expect(await a.feePaid?.('00'.repeat(32))).toBeNull();
  });

  it('lends the energy from staked TRX instead, and takes it back after the transfer', async () => {
    node = await startFakeTronNode({
      blockIntervalMs: 0,
      genesis: tronGenesis({ hotFrozenEnergySun: 5_000n * SUN }),
    });
    const a = await tronAdapterOn(node);
    const d = deposit(202);
    await customerPaysOn(node, d.address, 3_000_000n);
    node.mine(1);
    const quote = await a.sweepQuote?.({
      from: d.address,
      to: HOT,
      hot: HOT,
      token: usdt,
      margin: 1.1,
      delegate: true,
    });
    expect(quote).toMatchObject({ mode: 'delegate', topUpBase: 1n, needBase: 0n });
    expect(quote?.delegateSun).toBeGreaterThanOrEqual(SUN);
    await land(
      a,
      await a.signPayout({
        privateKey: hot.privateKey,
        from: HOT,
        to: d.address,
        token: trx,
        amountBase: 1n,
        nonce: null,
      }),
    );
    const lend = { privateKey: hot.privateKey, from: HOT, to: d.address, sun: quote?.delegateSun as bigint };
    await land(a, (await a.signDelegation?.({ ...lend, reclaim: false })) as SignedPayout);
    const sweep = (await a.signSweep?.({
      ...d,
      from: d.address,
      to: HOT,
      token: usdt,
      nonce: null,
    })) as SignedPayout;
    await land(a, sweep);
    expect(await a.feePaid?.(sweep.txHash)).toBe(0n); // lent energy, free bandwidth
    expect(node.trc20Balance(USDT, d.address)).toBe(0n);
    expect(node.trxBalance(d.address)).toBe(1n);
    await land(a, (await a.signDelegation?.({ ...lend, reclaim: true })) as SignedPayout);
    const lendable = await fetch(`${node.url}/wallet/getcandelegatedmaxsize`, {
      method: 'POST',
      body: JSON.stringify({ owner_address: TronWeb.address.toHex(HOT), type: 1 }),
    });
    expect(((await lendable.json()) as { max_size: number }).max_size).toBe(Number(5_000n * SUN));
  });

  it('sweeps TRX as the balance minus the bandwidth it burns', async () => {
    node = await startFakeTronNode({ blockIntervalMs: 0, genesis: tronGenesis() });
    const a = await tronAdapterOn(node);
    const d = deposit(204);
    await customerPaysOn(node, d.address, 25_000_000n, { token: false });
    node.mine(1);
    const quote = await a.sweepQuote?.({
      from: d.address,
      to: HOT,
      hot: HOT,
      token: trx,
      margin: 1,
      delegate: true,
    });
    expect(quote).toMatchObject({ mode: 'self', amountBase: 25_000_000n, feeBase: 0n }); // free bandwidth
    const before = node.trxBalance(HOT);
    await land(
      a,
      (await a.signSweep?.({ ...d, from: d.address, to: HOT, token: trx, nonce: null })) as SignedPayout,
    );
    expect(node.trxBalance(HOT) - before).toBe(25_000_000n);
    expect(node.trxBalance(d.address)).toBe(0n);
  });
});
