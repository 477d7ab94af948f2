import type { Address, Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customer, ethAdapterOn, ethDevnet, ethTokens, hot } from '../../../../test/helpers/evm-node.ts';
import { TEST_MNEMONIC } from '../../../../test/helpers/harness.ts';
import type { EvmDevnet } from '../../../devnet/evm/devnet.ts';
import { tokenBalance, transferToken } from '../../../devnet/evm/tokens.ts';
import { createKeyRing } from '../../../keys/key-ring.ts';

let devnet: EvmDevnet;
beforeAll(async () => {
  devnet = await ethDevnet();
});
afterAll(() => devnet?.stop());

const keys = createKeyRing(TEST_MNEMONIC);
const deposit = (i: number) => ({
  address: keys.depositAddress('evm', i),
  privateKey: keys.depositKey('evm', i),
});

/** The customer pays `amount` of USDT (the token that returns nothing from transfer) to `to`. */
async function payUsdt(to: string, amount: bigint) {
  const c = devnet.get('ETH');
  await transferToken(c.client, { from: customer, token: c.tokens.USDT.address, to: to as Address, amount });
}

describe('EVM sweeps: quote, sign, fee paid', () => {
  it('sweeps a whole USDT balance after the hot wallet tops up exactly the quoted gas', async () => {
    const c = devnet.get('ETH');
    const { usdt, eth } = ethTokens(devnet);
    const a = await ethAdapterOn(devnet);
    const d = deposit(101);
    await payUsdt(d.address, 7_250_000n);
    const quote = await a.sweepQuote?.({
      from: d.address,
      to: hot.address,
      hot: hot.address,
      token: usdt,
      margin: 1.25,
      delegate: false,
    });
    expect(quote).toMatchObject({ mode: 'topup', amountBase: 7_250_000n, haveBase: 0n });
    expect(quote?.topUpBase).toBe(quote?.needBase);
    expect(quote?.feeBase).toBeGreaterThan(quote?.topUpBase as bigint);

    // nothing topped up yet: the transfer cannot be paid for
    await expect(
      a.signSweep?.({ ...d, from: d.address, to: hot.address, token: usdt, nonce: 0 }),
    ).rejects.toMatchObject({ code: 'wallet_underfunded' });

    const topUp = await a.signPayout({
      privateKey: hot.privateKey,
      from: hot.address,
      to: d.address,
      token: eth,
      amountBase: quote?.topUpBase as bigint,
      nonce: await c.client.getTransactionCount({ address: hot.address as Address }),
    });
    await a.broadcast(topUp);
    await c.client.waitForTransactionReceipt({ hash: topUp.txHash as Hex });
    const before = await tokenBalance(c.client, c.tokens.USDT.address, hot.address as Address);

    const sweep = await a.signSweep?.({ ...d, from: d.address, to: hot.address, token: usdt, nonce: 0 });
    expect(sweep).toMatchObject({ amountBase: 7_250_000n, nonce: 0, slot: 'nonce 0' });
    expect(await a.broadcast(sweep as { raw: string; txHash: string })).toEqual({ ok: true });
    const receipt = await c.client.waitForTransactionReceipt({ hash: sweep?.txHash as Hex });
    expect(receipt.status).toBe('success');
    expect(await tokenBalance(c.client, c.tokens.USDT.address, d.address as Address)).toBe(0n);
    expect(await tokenBalance(c.client, c.tokens.USDT.address, hot.address as Address)).toBe(
      before + 7_250_000n,
    );

    // what it burnt is what left the address's native coin
    const fee = await a.feePaid?.(sweep?.txHash as string);
    expect(fee).toBe(receipt.gasUsed * receipt.effectiveGasPrice);
    expect(await c.client.getBalance({ address: d.address as Address })).toBe(
      (quote?.topUpBase as bigint) - (fee as bigint),
    );
    expect(await a.feePaid?.(`0x${'ab'.repeat(32)}`)).toBeNull();
  });

  it('sweeps a native deposit as its balance minus the fee, paying its own gas', async () => {
    const c = devnet.get('ETH');
    const { eth } = ethTokens(devnet);
    const a = await ethAdapterOn(devnet);
    const d = deposit(102);
    const hash = await c.client.sendTransaction({
      account: customer,
      to: d.address as Address,
      value: 10n ** 17n,
      chain: c.client.chain,
    });
    await c.client.waitForTransactionReceipt({ hash });
    const quote = await a.sweepQuote?.({
      from: d.address,
      to: hot.address,
      hot: hot.address,
      token: eth,
      margin: 1.25,
      delegate: false,
    });
    expect(quote).toMatchObject({ mode: 'self', topUpBase: 0n, haveBase: 10n ** 17n });
    expect((quote?.amountBase as bigint) + (quote?.feeBase as bigint)).toBe(10n ** 17n);
    const sweep = await a.signSweep?.({ ...d, from: d.address, to: hot.address, token: eth, nonce: 0 });
    await a.broadcast(sweep as { raw: string; txHash: string });
    await c.client.waitForTransactionReceipt({ hash: sweep?.txHash as Hex });
    const left = await c.client.getBalance({ address: d.address as Address });
    const fee = (await a.feePaid?.(sweep?.txHash as string)) as bigint;
    expect(left + fee + (sweep?.amountBase as bigint)).toBe(10n ** 17n);
    expect(left).toBeLessThan(21_000n * 10n ** 10n); // what is left is the unused part of the fee cap
  });

  it('refuses to sweep an address holding nothing, and a key that is not the address', async () => {
    const { usdt } = ethTokens(devnet);
    const a = await ethAdapterOn(devnet);
    const d = deposit(103);
    await expect(
      a.signSweep?.({ ...d, from: d.address, to: hot.address, token: usdt, nonce: 0 }),
    ).rejects.toMatchObject({
      code: 'payout_rejected',
    });
    await expect(
      a.signSweep?.({
        privateKey: deposit(104).privateKey,
        from: d.address,
        to: hot.address,
        token: usdt,
        nonce: 0,
      }),
    ).rejects.toMatchObject({ code: 'wrong_key' });
  });
});
