import { type Address, getAddress, parseTransaction } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customer, ethAdapterOn, ethDevnet, ethTokens, hot } from '../../../../test/helpers/evm-node.ts';
import type { EvmDevnet } from '../../../devnet/evm/devnet.ts';
import { tokenBalance } from '../../../devnet/evm/tokens.ts';

let devnet: EvmDevnet;
beforeAll(async () => {
  devnet = await ethDevnet();
});
afterAll(() => devnet?.stop());

const receiver = '0x00000000000000000000000000000000000000C3' as Address;

describe('EVM signPayout', () => {
  it('signs a token transfer and a native transfer at the nonce given, which the node mines as asked', async () => {
    const c = devnet.get('ETH');
    const { usdt, eth } = ethTokens(devnet);
    const a = await ethAdapterOn(devnet);
    const nonce = await a.nextNonce?.(hot.address);
    expect(nonce).toBe(await c.client.getTransactionCount({ address: hot.address as Address }));
    const base = { privateKey: hot.privateKey, from: hot.address, to: receiver };
    const token = await a.signPayout({ ...base, token: usdt, amountBase: 5n, nonce: nonce as number });
    expect(token).toMatchObject({ nonce, validUntil: null, slot: `nonce ${nonce}` });
    expect(token.maxFeePerGas).toBeGreaterThan(0n);
    const parsed = parseTransaction(token.raw as `0x${string}`);
    expect({ ...parsed, to: getAddress(parsed.to as string) }).toMatchObject({
      nonce,
      to: c.tokens.USDT.address,
      chainId: 1,
    });
    expect(await a.broadcast(token)).toEqual({ ok: true });
    await c.client.waitForTransactionReceipt({ hash: token.txHash as `0x${string}` });
    expect(await tokenBalance(c.client, c.tokens.USDT.address, receiver)).toBe(5n);

    const native = await a.signPayout({ ...base, token: eth, amountBase: 9n, nonce: (nonce as number) + 1 });
    expect(await a.broadcast(native)).toEqual({ ok: true });
    await c.client.waitForTransactionReceipt({ hash: native.txHash as `0x${string}` });
    expect(await c.client.getBalance({ address: receiver })).toBe(9n);
  });

  it('refuses for good a transfer the token would revert, and refuses a wrong key or a missing nonce', async () => {
    const { usdt } = ethTokens(devnet);
    const a = await ethAdapterOn(devnet);
    const base = { privateKey: hot.privateKey, from: hot.address, to: receiver, token: usdt, nonce: 0 };
    await expect(a.signPayout({ ...base, amountBase: 10n ** 30n })).rejects.toMatchObject({
      name: 'ChainError',
      code: 'payout_rejected',
      message: expect.stringMatching(/^The transfer would revert/),
    });
    const wrongKey = Buffer.from(customer.getHdKey().privateKey as Uint8Array);
    await expect(a.signPayout({ ...base, privateKey: wrongKey, amountBase: 1n })).rejects.toMatchObject({
      code: 'wrong_key',
    });
    await expect(a.signPayout({ ...base, amountBase: 1n, nonce: null })).rejects.toMatchObject({
      code: 'bad_request',
    });
  });
});
