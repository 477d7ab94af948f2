import { type Address, decodeFunctionResult, encodeFunctionData, getAddress, parseEventLogs } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from './anvil.ts';
import { noReturnTokenAbi, testTokenAbi } from './artifacts.ts';
import { createDevnetClient, type DevnetClient } from './client.ts';
import {
  DevnetTransactionRevertedError,
  deployTestToken,
  mint,
  readTokenInfo,
  setBlocked,
  tokenBalance,
  transferToken,
} from './tokens.ts';

const MNEMONIC = 'test test test test test test test test test test test junk';
// A local account (signed by viem, like Kassa's derived wallets), not one anvil signs for.
const payer = mnemonicToAccount(MNEMONIC, { addressIndex: 42 });
const merchant: Address = getAddress('0x00000000000000000000000000000000000ca55a');

let anvil: AnvilInstance;
let client: DevnetClient;
let owner: Address;

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 1 });
  client = createDevnetClient({ url: anvil.url, chainId: anvil.chainId });
  [owner] = (await client.getAddresses()) as [Address];
  await client.setBalance({ address: payer.address, value: 10n ** 18n });
});
afterAll(() => anvil?.stop());

/** What `transfer` returns when called (eth_call), as raw bytes. */
async function transferReturnData(token: Address): Promise<string | undefined> {
  const { data } = await client.call({
    account: owner,
    to: token,
    data: encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [merchant, 1n] }),
  });
  return data;
}

describe('deployTestToken', () => {
  it('deploys a standard token with the decimals given (6 and 18) whose transfer returns true', async () => {
    const usdc = await deployTestToken(client, {
      name: 'USD Coin',
      symbol: 'USDC',
      decimals: 6,
      kind: 'standard',
    });
    const bsc = await deployTestToken(client, {
      name: 'Tether USD',
      symbol: 'USDT',
      decimals: 18,
      kind: 'standard',
    });
    expect(await readTokenInfo(client, usdc)).toEqual({ name: 'USD Coin', symbol: 'USDC', decimals: 6 });
    expect(await readTokenInfo(client, bsc)).toEqual({ name: 'Tether USD', symbol: 'USDT', decimals: 18 });
    await mint(client, { token: usdc, to: owner, amount: 5n });
    const data = await transferReturnData(usdc);
    expect(
      decodeFunctionResult({ abi: testTokenAbi, functionName: 'transfer', data: data as `0x${string}` }),
    ).toBe(true);
  });

  it('deploys a no-return token whose transfer returns no data at all', async () => {
    const usdt = await deployTestToken(client, {
      name: 'Tether USD',
      symbol: 'USDT',
      decimals: 6,
      kind: 'no-return',
    });
    expect(await readTokenInfo(client, usdt)).toEqual({ name: 'Tether USD', symbol: 'USDT', decimals: 6 });
    await mint(client, { token: usdt, to: owner, amount: 5n });
    expect(await transferReturnData(usdt)).toBeUndefined();
    // The pitfall adapters must avoid: simulating with a bool-returning ABI fails; the right ABI works.
    const args = [merchant, 1n] as const;
    await expect(
      client.simulateContract({
        account: owner,
        address: usdt,
        abi: testTokenAbi,
        functionName: 'transfer',
        args,
      }),
    ).rejects.toThrow();
    await expect(
      client.simulateContract({
        account: owner,
        address: usdt,
        abi: noReturnTokenAbi,
        functionName: 'transfer',
        args,
      }),
    ).resolves.toBeDefined();
  });

  it('rejects decimals that do not fit a uint8', async () => {
    await expect(
      deployTestToken(client, { name: 'x', symbol: 'X', decimals: 256, kind: 'standard' }),
    ).rejects.toThrow(RangeError);
  });
});

describe('transferToken', () => {
  it('sends a no-return transfer signed by a local account; it succeeds and emits Transfer', async () => {
    const usdt = await deployTestToken(client, {
      name: 'Tether USD',
      symbol: 'USDT',
      decimals: 6,
      kind: 'no-return',
    });
    await mint(client, { token: usdt, to: payer.address, amount: 1_000_000n });

    const receipt = await transferToken(client, { from: payer, token: usdt, to: merchant, amount: 250_000n });

    expect(receipt.status).toBe('success');
    const transfers = parseEventLogs({ abi: testTokenAbi, eventName: 'Transfer', logs: receipt.logs });
    expect(transfers).toHaveLength(1);
    expect(transfers[0]!.address).toBe(usdt.toLowerCase());
    expect(transfers[0]!.args).toEqual({ from: payer.address, to: merchant, value: 250_000n });
    expect(await tokenBalance(client, usdt, payer.address)).toBe(750_000n);
    expect(await tokenBalance(client, usdt, merchant)).toBe(250_000n);
  });
});

describe('setBlocked', () => {
  it.each(['standard', 'no-return'] as const)(
    'makes a %s transfer to a blocked address revert',
    async (kind) => {
      const token = await deployTestToken(client, { name: 'Test', symbol: 'TST', decimals: 6, kind });
      await mint(client, { token, to: payer.address, amount: 100n });
      await setBlocked(client, { token, account: merchant, blocked: true });

      // Refused at gas estimation, with the reason.
      await expect(transferToken(client, { from: payer, token, to: merchant, amount: 10n })).rejects.toThrow(
        /recipient is blocked/,
      );
      // Forced on chain with a fixed gas limit: mined, reverted, no Transfer, nothing moved.
      await expect(
        transferToken(client, { from: payer, token, to: merchant, amount: 10n, gas: 100_000n }),
      ).rejects.toThrow(DevnetTransactionRevertedError);
      const reverted = await transferToken(client, {
        from: payer,
        token,
        to: merchant,
        amount: 10n,
        gas: 100_000n,
        allowRevert: true,
      });
      expect(reverted.status).toBe('reverted');
      expect(reverted.logs).toEqual([]);
      expect(await tokenBalance(client, token, payer.address)).toBe(100n);

      // Unblocked, the same transfer goes through: the block was the cause.
      await setBlocked(client, { token, account: merchant, blocked: false });
      const ok = await transferToken(client, { from: payer, token, to: merchant, amount: 10n });
      expect(ok.status).toBe('success');
      expect(await tokenBalance(client, token, merchant)).toBe(10n);
    },
  );

  it('lets only the owner mint and block', async () => {
    const token = await deployTestToken(client, {
      name: 'Test',
      symbol: 'TST',
      decimals: 6,
      kind: 'standard',
    });
    await expect(mint(client, { token, to: payer.address, amount: 1n, from: payer })).rejects.toThrow(
      /caller is not the owner/,
    );
    await expect(
      setBlocked(client, { token, account: merchant, blocked: true, from: payer }),
    ).rejects.toThrow(/caller is not the owner/);
  });
});
