import { type Address, encodeFunctionData, getAddress, parseAbiItem } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from './anvil.ts';
import { testTokenAbi } from './artifacts.ts';
import { createDevnetClient, type DevnetClient } from './client.ts';
import { reorg, rollback } from './reorg.ts';
import { deployTestToken, mint, tokenBalance, transferToken } from './tokens.ts';

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');
const payer = mnemonicToAccount('test test test test test test test test test test test junk', {
  addressIndex: 7,
});
const deposit: Address = getAddress('0x000000000000000000000000000000000000d3a0');

let anvil: AnvilInstance;
let client: DevnetClient;
let owner: Address;
let token: Address;

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 137 });
  client = createDevnetClient({ url: anvil.url, chainId: anvil.chainId });
  [owner] = (await client.getAddresses()) as [Address];
  await client.setBalance({ address: payer.address, value: 10n ** 18n });
  token = await deployTestToken(client, { name: 'USD Coin', symbol: 'USDC', decimals: 6, kind: 'standard' });
});
afterAll(() => anvil?.stop());

let payment: Awaited<ReturnType<typeof transferToken>>;
beforeEach(async () => {
  await mint(client, { token, to: payer.address, amount: 1_000n });
  payment = await transferToken(client, { from: payer, token, to: deposit, amount: 100n });
  await client.mine({ blocks: 2 }); // the payment is 2 blocks deep
});

const depositLogs = () =>
  client.getLogs({
    address: token,
    event: transferEvent,
    args: { to: deposit },
    fromBlock: payment.blockNumber,
  });

describe('reorg', () => {
  it('removes a Transfer log that was in a replaced block and keeps the chain as long', async () => {
    expect(await depositLogs()).toHaveLength(1);
    const before = await tokenBalance(client, token, deposit);

    const result = await reorg(client, 3);

    expect(await depositLogs()).toEqual([]);
    expect(await tokenBalance(client, token, deposit)).toBe(before - 100n);
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(result.head);
    expect(result.replaced.map((block) => block.number)).toEqual([
      result.head - 2n,
      result.head - 1n,
      result.head,
    ]);
    const now = await client.getBlock({ blockNumber: payment.blockNumber });
    expect(now.hash).not.toBe(payment.blockHash);
    expect(now.transactions).toEqual([]);
    await expect(client.getTransactionReceipt({ hash: payment.transactionHash })).rejects.toThrow(
      /could not be found/,
    );
  });

  it('moves a re-included transaction to another block, so its log has a new block hash', async () => {
    const result = await reorg(client, 3, {
      transactions: [{ hash: payment.transactionHash, blockOffset: 1 }],
    });

    const moved = await client.getTransactionReceipt({ hash: payment.transactionHash });
    expect(moved.blockNumber).toBe(result.head - 1n);
    expect(moved.blockHash).not.toBe(payment.blockHash);
    const logs = await depositLogs();
    expect(logs).toHaveLength(1);
    expect(logs[0]!.blockHash).toBe(moved.blockHash);
    expect(logs[0]!.args.value).toBe(100n);
  });

  it('includes a new transaction request from a dev account in the replacement blocks', async () => {
    await mint(client, { token, to: owner, amount: 7n });
    await client.mine({ blocks: 2 }); // keep the mint out of the blocks being replaced
    const data = encodeFunctionData({ abi: testTokenAbi, functionName: 'transfer', args: [deposit, 7n] });
    await reorg(client, 2, { transactions: [{ request: { from: owner, to: token, data }, blockOffset: 0 }] });

    const logs = await client.getLogs({
      address: token,
      event: transferEvent,
      args: { to: deposit },
      fromBlock: 0n,
    });
    expect(logs.map((log) => [log.args.from, log.args.value])).toContainEqual([owner, 7n]);
  });

  it('refuses a depth of 0 or beyond the head, and an offset outside the new blocks', async () => {
    const head = await client.getBlockNumber({ cacheTime: 0 });
    await expect(reorg(client, 0)).rejects.toThrow(RangeError);
    await expect(reorg(client, Number(head) + 1)).rejects.toThrow(RangeError);
    await expect(
      reorg(client, 2, { transactions: [{ hash: payment.transactionHash, blockOffset: 2 }] }),
    ).rejects.toThrow(RangeError);
  });
});

describe('rollback', () => {
  it('shortens the chain and drops the transactions of the removed blocks', async () => {
    const head = await client.getBlockNumber({ cacheTime: 0 });
    expect(await rollback(client, 3)).toBe(head - 3n);
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(head - 3n);
    const logs = await client.getLogs({
      address: token,
      event: transferEvent,
      args: { to: deposit },
      fromBlock: 0n,
    });
    expect(logs.map((log) => log.transactionHash)).not.toContain(payment.transactionHash);
  });
});
