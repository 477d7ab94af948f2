import { TronWeb } from 'tronweb';
import { startFakeTronNode } from '../../src/devnet/tron/index.ts';
import { makeHarness } from './harness.ts';
import type { FuzzChain } from './reorg-fuzz-chain.ts';
import { CUSTOMER, CUSTOMER_KEY, tronChainConfig, tronGenesis, unsignedPayment } from './tron-chain.ts';

type Signed = Parameters<TronWeb['trx']['sendRawTransaction']>[0];

/**
 * TRON on the fake node for the reorg fuzz: blocks by hand (3 s of chain time each), solidified
 * 12 blocks behind the head (forks reach at most that deep, as on java-tron), Kassa at 6
 * confirmations with scan steps of 3 blocks. Orders are in USDT, the wrong token is TRX (so native
 * transfers are scanned too). A reorganisation forks the last blocks away and broadcasts the kept
 * transactions again, the very same signed bytes, into random blocks of the new branch.
 */
export async function tronFuzzChain(options: { ttlSeconds: number }): Promise<FuzzChain> {
  const node = await startFakeTronNode({ blockIntervalMs: 0, solidLag: 12, genesis: tronGenesis() });
  const config = tronChainConfig([node.url], { confirmations: 6, maxLogRange: 3 });
  const h = await makeHarness(
    { ...config, orders: { collectionTtlSeconds: options.ttlSeconds } },
    { clockStart: node.state().headTimestamp, chains: true },
  );
  const tronWeb = new TronWeb({ fullHost: node.url, privateKey: CUSTOMER_KEY });
  const signed = new Map<string, Signed>();
  let paid = 0;
  const call = async (path: string, body: unknown) => {
    const res = await fetch(`${node.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
    return (await res.json()) as Record<string, unknown>;
  };

  return {
    chain: 'TRON',
    confirmations: 6,
    tokens: [
      { symbol: 'USDT', decimals: 6 },
      { symbol: 'TRX', decimals: 6 },
    ],
    h,
    head: async () => node.head(),
    headTime: async () => node.state().headTimestamp,
    reorgLimit: async () => node.head() - node.solid(),
    async pay(symbol, to, amountBase) {
      const unsigned = await unsignedPayment(tronWeb, symbol as 'USDT' | 'TRX', CUSTOMER, to, amountBase);
      // a memo makes two equal payments to one address in the same millisecond distinct transactions
      const unique = await tronWeb.transactionBuilder.addUpdateData(unsigned, `fuzz ${++paid}`, 'utf8', {
        txLocal: true,
      });
      const tx = (await tronWeb.trx.sign(unique, CUSTOMER_KEY)) as Signed;
      const sent = await tronWeb.trx.sendRawTransaction(tx);
      if (sent.result !== true) throw new Error(`payment refused: ${JSON.stringify(sent)}`);
      signed.set(tx.txID, tx);
      return tx.txID;
    },
    async mine(blocks) {
      node.mine(blocks);
    },
    async reorg(depth, keep, random) {
      const { dropped } = node.fork(depth);
      const length = Math.max(1, depth - 1 + Math.floor(random() * 3));
      const placed = new Map<number, string[]>();
      for (const txid of dropped) {
        if (!keep(txid)) continue;
        const at = Math.floor(random() * length);
        placed.set(at, [...(placed.get(at) ?? []), txid]);
      }
      for (let i = 0; i < length; i++) {
        for (const txid of placed.get(i) ?? []) {
          const tx = signed.get(txid);
          // the very same signed bytes again; a refusal (expired) leaves it dropped
          if (tx) await tronWeb.trx.sendRawTransaction(tx);
        }
        node.mine(1);
      }
    },
    async locate(txid) {
      const info = await call('/wallet/gettransactioninfobyid', { value: txid });
      if (typeof info.blockNumber !== 'number') return null;
      const block = await call('/wallet/getblockbynum', { num: info.blockNumber });
      if (typeof block.blockID !== 'string') return null;
      const receipt = info.receipt as { result?: string } | undefined;
      const success = info.result !== 'FAILED' && (receipt?.result ?? 'SUCCESS') === 'SUCCESS';
      return { blockNum: info.blockNumber, blockHash: block.blockID, success };
    },
    async mineUntil(atMs) {
      while (node.state().headTimestamp < atMs)
        node.mine(Math.max(1, Math.ceil((atMs - node.state().headTimestamp) / 3000)));
    },
    async close() {
      await h.close();
      await node.close();
    },
  };
}
