import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeTronNode } from './server.ts';
import { ADDRESSES, hexOf, KEYS, sendToken, startTestNode, tronwebFor, USDT } from './test-kit.ts';

/* tronweb 6.5.1, unmodified, against the fake node: the calls the gateway's adapter makes. */

describe('tronweb against the fake TRON node', () => {
  let node: FakeTronNode;

  beforeEach(async () => {
    node = await startTestNode();
  });

  afterEach(async () => {
    await node.close();
  });

  it('reads TRX balances with trx.getBalance from solidified state, getUnconfirmedBalance from the head', async () => {
    const tronWeb = tronwebFor(node);
    expect(await tronWeb.trx.getBalance(ADDRESSES.alice)).toBe(1_000_000_000);
    expect(await tronWeb.trx.getBalance(ADDRESSES.carol)).toBe(0);

    const transaction = await tronWeb.transactionBuilder.sendTrx(ADDRESSES.bob, 3_000_000, ADDRESSES.alice);
    const signed = await tronWeb.trx.sign(transaction, KEYS.alice);
    const sent = await tronWeb.trx.sendRawTransaction(signed);
    expect(sent.result).toBe(true);
    node.mine();
    expect(await tronWeb.trx.getUnconfirmedBalance(ADDRESSES.bob)).toBe(13_000_000);
    expect(await tronWeb.trx.getBalance(ADDRESSES.bob)).toBe(10_000_000);
    node.mine(19);
    expect(await tronWeb.trx.getBalance(ADDRESSES.bob)).toBe(13_000_000);
  });

  it('loads a token with contract().at() and reads it with balanceOf/decimals/symbol().call()', async () => {
    const tronWeb = tronwebFor(node);
    const usdt = await tronWeb.contract().at(USDT);
    expect(BigInt((await usdt.balanceOf(ADDRESSES.alice).call()).toString())).toBe(1_000_000_000n);
    expect(BigInt((await usdt.balanceOf(ADDRESSES.carol).call()).toString())).toBe(0n);
    expect(Number(await usdt.decimals().call())).toBe(6);
    expect(await usdt.symbol().call()).toBe('USDT');
    expect(await usdt.name().call()).toBe('Tether USD');
    await expect(tronWeb.contract().at(ADDRESSES.carol)).rejects.toThrow();
  });

  it('sends a TRC-20 transfer via triggerSmartContract + trx.sign + trx.sendRawTransaction and reports it via getTransactionInfo', async () => {
    const tronWeb = tronwebFor(node);
    const { transaction } = await tronWeb.transactionBuilder.triggerSmartContract(
      USDT,
      'transfer(address,uint256)',
      { feeLimit: 40_000_000 },
      [
        { type: 'address', value: ADDRESSES.carol },
        { type: 'uint256', value: 2_500_000 },
      ],
      ADDRESSES.alice,
    );
    const signed = await tronWeb.trx.sign(transaction, KEYS.alice);
    const sent = await tronWeb.trx.sendRawTransaction(signed);
    expect(sent).toMatchObject({ result: true, txid: signed.txID });

    node.mine();
    expect(await tronWeb.trx.getTransactionInfo(signed.txID)).toEqual({});
    const unconfirmed = await tronWeb.trx.getUnconfirmedTransactionInfo(signed.txID);
    expect(unconfirmed.blockNumber).toBe(node.head());
    node.mine(19);
    const info = await tronWeb.trx.getTransactionInfo(signed.txID);
    expect(info.receipt.result).toBe('SUCCESS');
    expect(info.log?.[0]?.topics[2]).toBe(`000000000000000000000000${hexOf(ADDRESSES.carol).slice(2)}`);
    const usdt = await tronWeb.contract().at(USDT);
    expect(BigInt((await usdt.balanceOf(ADDRESSES.carol).call()).toString())).toBe(2_500_000n);
    expect((await tronWeb.trx.getTransaction(signed.txID)).ret[0]?.contractRet).toBe('SUCCESS');
  });

  it('sends a tronweb-built TRC-20 transfer (txLocal) through the same checks', async () => {
    const tronWeb = tronwebFor(node);
    const { transaction } = await tronWeb.transactionBuilder.triggerSmartContract(
      USDT,
      'transfer(address,uint256)',
      { feeLimit: 40_000_000, txLocal: true },
      [
        { type: 'address', value: ADDRESSES.bob },
        { type: 'uint256', value: 7 },
      ],
      ADDRESSES.alice,
    );
    const sent = await tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(transaction, KEYS.alice));
    expect(sent.result).toBe(true);
    node.mine();
    expect(node.trc20Balance(USDT, ADDRESSES.bob)).toBe(7n);
  });

  it('sends TRX with transactionBuilder.sendTrx and with trx.sendTransaction', async () => {
    const tronWeb = tronwebFor(node);
    const transaction = await tronWeb.transactionBuilder.sendTrx(ADDRESSES.carol, 2_000_000, ADDRESSES.alice);
    const sent = await tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(transaction, KEYS.alice));
    expect(sent.result).toBe(true);
    const viaSend = await tronwebFor(node, KEYS.bob).trx.sendTransaction(ADDRESSES.alice, 1_000_000);
    expect(viaSend.result).toBe(true);
    node.mine();
    expect(await tronWeb.trx.getUnconfirmedBalance(ADDRESSES.carol)).toBe(2_000_000);
    expect(node.trxBalance(ADDRESSES.bob)).toBe(9_000_000n);
  });

  it('follows the head and the solidified block with getCurrentBlock / getConfirmedCurrentBlock / getBlockRange', async () => {
    const tronWeb = tronwebFor(node);
    node.mine(3);
    const head = await tronWeb.trx.getCurrentBlock();
    const solid = await tronWeb.trx.getConfirmedCurrentBlock();
    expect(head.block_header.raw_data.number).toBe(node.head());
    expect(solid.block_header.raw_data.number).toBe(node.head() - 19);
    const range = await tronWeb.trx.getBlockRange(node.head() - 2, node.head());
    expect(range.map((block) => block.block_header.raw_data.number)).toEqual([
      node.head() - 2,
      node.head() - 1,
      node.head(),
    ]);
    await expect(tronWeb.trx.getBlockByNumber(node.head() + 1)).rejects.toThrow('Block not found');
    const raw = await tronWeb.trx.raw.getCurrentBlock();
    expect(raw.block_header.raw_data.number).toBe(String(node.head()));
  });

  it('lets contract.method().send() broadcast and reports the failure reason of a transfer that ran out of energy', async () => {
    const tronWeb = tronwebFor(node);
    const usdt = await tronWeb.contract().at(USDT);
    const txid = await usdt.transfer(ADDRESSES.bob, 1).send({ feeLimit: 1_000_000 });
    node.mine(20);
    const info = await tronWeb.trx.getTransactionInfo(txid);
    expect(info.result).toBe('FAILED');
    expect(info.receipt.result).toBe('OUT_OF_ENERGY');
    expect(tronWeb.toUtf8(info.resMessage ?? '')).toMatch(/^Not enough energy/);
  });

  it('returns false from a returnsFalse (USDT-like) token but true from an ordinary one, both with a Transfer log', async () => {
    const plain = node.deployTrc20({ symbol: 'PLN', name: 'Plain', decimals: 18 });
    node.mintTrc20(plain, ADDRESSES.alice, 10n ** 18n);
    const usdtSent = await sendToken(node, 'alice', ADDRESSES.bob, 1n);
    const plainSent = await sendToken(node, 'alice', ADDRESSES.bob, 1n, { contract: plain });
    node.mine();
    const tronWeb = tronwebFor(node);
    const usdtInfo = await tronWeb.trx.getUnconfirmedTransactionInfo(usdtSent.transaction.txID);
    const plainInfo = await tronWeb.trx.getUnconfirmedTransactionInfo(plainSent.transaction.txID);
    expect(usdtInfo.contractResult).toEqual(['0'.repeat(64)]);
    expect(plainInfo.contractResult).toEqual([`${'0'.repeat(63)}1`]);
    for (const info of [usdtInfo, plainInfo]) {
      expect(info.receipt.result).toBe('SUCCESS');
      expect(info.log).toHaveLength(1);
    }
  });
});
