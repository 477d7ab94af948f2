import { type Address, encodeFunctionData, type Hash, parseAbi } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { startEvmDevnet } from '../../src/devnet/evm/devnet.ts';
import { type ReorgTransaction, reorg } from '../../src/devnet/evm/reorg.ts';
import { devnetChainConfig } from './evm-chain.ts';
import { makeHarness } from './harness.ts';
import type { FuzzChain } from './reorg-fuzz-chain.ts';

const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
const PAYERS = [1, 2, 3, 4].map((addressIndex) => mnemonicToAccount(DEV_MNEMONIC, { addressIndex }));
/** The devnet's account 0, which deployed the tokens. */
const OWNER = mnemonicToAccount(DEV_MNEMONIC, { addressIndex: 0 });
const transferAbi = parseAbi(['function transfer(address,uint256)']);

/**
 * ETH on anvil for the reorg fuzz: blocks mined by hand one second apart (chain time does not
 * follow the wall clock, so a slow machine changes nothing), Kassa at 6 confirmations with scan
 * steps of 3 blocks (a pass has several steps to be interrupted between), four customers paying
 * USDT orders (USDC is the wrong token). Reorganisations use anvil_reorg.
 */
export async function evmFuzzChain(options: { ttlSeconds: number }): Promise<FuzzChain> {
  const devnet = await startEvmDevnet({
    chains: ['ETH'],
    fund: { accounts: PAYERS.map((p) => p.address) },
    noMining: true,
  });
  const c = devnet.get('ETH');
  const client = c.client;
  await client.request({ method: 'anvil_setBlockTimestampInterval' as never, params: [1] as never });
  await client.mine({ blocks: 1 });
  const config = devnetChainConfig(devnet, { confirmations: 6 }) as {
    chains: Record<string, Record<string, unknown>>;
  };
  (config.chains.ETH as Record<string, unknown>).maxLogRange = 3;
  const latest = await client.getBlock();
  const h = await makeHarness(
    { ...config, orders: { collectionTtlSeconds: options.ttlSeconds } },
    { clockStart: Number(latest.timestamp) * 1000, chains: true },
  );
  /** Who sent each transaction, with which nonce (a reorg may only re-include a prefix per sender). */
  const senders = new Map<string, { payer: number; nonce: number }>();
  let next = 0;
  let openers = 0;
  const head = async () => Number(await client.getBlockNumber({ cacheTime: 0 }));

  return {
    chain: 'ETH',
    confirmations: 6,
    tokens: [
      { symbol: 'USDT', decimals: c.tokens.USDT.decimals },
      { symbol: 'USDC', decimals: c.tokens.USDC.decimals },
    ],
    h,
    head,
    async headTime() {
      return Number((await client.getBlock({ blockTag: 'latest' })).timestamp) * 1000;
    },
    async reorgLimit() {
      return (await head()) - 1;
    },
    async pay(symbol, to, amountBase) {
      const payer = next++ % PAYERS.length;
      const account = PAYERS[payer] as (typeof PAYERS)[number];
      const nonce = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
      const token = c.tokens[symbol as 'USDT' | 'USDC'];
      const hash = await client.sendTransaction({
        account,
        chain: client.chain,
        nonce,
        gas: 100_000n,
        to: token.address,
        data: encodeFunctionData({
          abi: transferAbi,
          functionName: 'transfer',
          args: [to as Address, amountBase],
        }),
      });
      senders.set(hash, { payer, nonce });
      return hash;
    },
    async mine(blocks) {
      await client.mine({ blocks });
    },
    async reorg(depth, keep, random) {
      const top = await head();
      const replaced: Hash[] = [];
      for (let n = top - depth + 1; n <= top; n++) {
        replaced.push(...(await client.getBlock({ blockNumber: BigInt(n) })).transactions);
      }
      const byPayer = new Map<number, { hash: Hash; nonce: number }[]>();
      for (const hash of replaced) {
        const who = senders.get(hash);
        if (!who) continue;
        byPayer.set(who.payer, [...(byPayer.get(who.payer) ?? []), { hash, nonce: who.nonce }]);
      }
      const kept: (ReorgTransaction & { hash: Hash })[] = [];
      for (const txs of byPayer.values()) {
        txs.sort((a, b) => a.nonce - b.nonce);
        const again: Hash[] = [];
        for (const tx of txs) {
          if (!keep(tx.hash)) break; // a later nonce cannot land without this one
          again.push(tx.hash);
        }
        const offsets = again.map(() => Math.floor(random() * depth)).sort((a, b) => a - b);
        again.forEach((hash, i) => {
          kept.push({ hash, blockOffset: offsets[i] as number });
        });
      }
      const order = new Map(replaced.map((hash, i) => [hash, i]));
      kept.sort(
        (a, b) => a.blockOffset - b.blockOffset || (order.get(a.hash) ?? 0) - (order.get(b.hash) ?? 0),
      );
      // A transaction of the devnet's owner opens the new branch, so its first block always differs
      // from the one it replaces (blocks are stamped one second apart: keeping every transaction in
      // place would rebuild the very same block, which is no reorganisation at all).
      // Signed here with the owner's nonce at the fork: an earlier opener may be in the replaced blocks.
      const nonce = await client.getTransactionCount({
        address: OWNER.address,
        blockNumber: BigInt(top - depth),
      });
      const raw = await OWNER.signTransaction({
        chainId: client.chain.id,
        type: 'eip1559',
        nonce,
        to: OWNER.address,
        value: BigInt(++openers), // two reorganisations from the same fork still get two branches
        gas: 21_000n,
        maxFeePerGas: 100_000_000_000n,
        maxPriorityFeePerGas: 1n,
      });
      const opener: ReorgTransaction = { raw, blockOffset: 0 };
      await reorg(client, depth, { transactions: [opener, ...kept] });
      const longer = Math.floor(random() * 3);
      if (longer > 0) await client.mine({ blocks: longer });
    },
    async locate(txid) {
      try {
        const receipt = await client.getTransactionReceipt({ hash: txid as Hash });
        const block = await client.getBlock({ blockNumber: receipt.blockNumber });
        if (block.hash !== receipt.blockHash) return null;
        return {
          blockNum: Number(receipt.blockNumber),
          blockHash: receipt.blockHash,
          success: receipt.status === 'success',
        };
      } catch (error) {
        if (/could not be found|not found/i.test(String((error as Error).message))) return null;
        throw error;
      }
    },
    async mineUntil(atMs) {
      const latestBlock = await client.getBlock({ blockTag: 'latest' });
      const at = BigInt(Math.ceil(atMs / 1000));
      if (latestBlock.timestamp < at) await client.setNextBlockTimestamp({ timestamp: at });
      await client.mine({ blocks: 1 });
    },
    async close() {
      await h.close();
      await devnet.stop();
    },
  };
}
