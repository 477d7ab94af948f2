import { utils } from 'tronweb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeTronNode } from './server.ts';
import {
  ADDRESSES,
  fromHexUtf8,
  type Json,
  KEYS,
  post,
  sendToken,
  sendTrx,
  startTestNode,
  tronwebFor,
  USDT,
} from './test-kit.ts';

/* Every broadcast is checked as java-tron checks it; refusals leave the pool and balances alone. */

describe('broadcasttransaction verification', () => {
  let node: FakeTronNode;

  beforeEach(async () => {
    node = await startTestNode();
  });

  afterEach(async () => {
    await node.close();
  });

  async function unsignedTransfer(sun: number, options: Record<string, unknown> = {}): Promise<Json> {
    return tronwebFor(node).transactionBuilder.sendTrx(ADDRESSES.bob, sun, ADDRESSES.alice, options);
  }

  async function broadcast(transaction: unknown): Promise<{ result?: boolean; code?: string; text: string }> {
    const { json } = await post(node, '/wallet/broadcasttransaction', transaction);
    return {
      result: json.result,
      code: json.code,
      text: json.message === undefined ? '' : fromHexUtf8(json.message),
    };
  }

  it('refuses a transaction signed by a key that is not the owner (SIGERROR)', async () => {
    const transaction = await unsignedTransfer(1_000_000);
    const signedByBob = utils.crypto.signTransaction(KEYS.bob, transaction);
    const answer = await broadcast(signedByBob);
    expect(answer.code).toBe('SIGERROR');
    expect(answer.text).toContain(`is signed by ${ADDRESSES.bob} but it is not contained of permission`);
    node.mine();
    expect(node.trxBalance(ADDRESSES.bob)).toBe(10_000_000n);
  });

  it('refuses raw_data tampered after signing, whether or not txID/raw_data_hex were recomputed', async () => {
    const signed = await tronwebFor(node).trx.sign(await unsignedTransfer(1_000_000), KEYS.alice);
    const tampered = structuredClone(signed);
    tampered.raw_data.contract[0]!.parameter.value.amount = 900_000_000;
    const stale = await broadcast(tampered);
    expect(stale.code).toBe('SIGERROR');

    const pb = utils.transaction.txJsonToPb(tampered);
    tampered.txID = String(utils.transaction.txPbToTxID(pb)).replace(/^0x/, '');
    tampered.raw_data_hex = String(utils.transaction.txPbToRawDataHex(pb)).toLowerCase();
    const recomputed = await broadcast(tampered);
    expect(recomputed.code).toBe('SIGERROR');
    expect(recomputed.text).toMatch(/is signed by T\w+ but it is not contained of permission/);

    node.mine();
    expect(node.trxBalance(ADDRESSES.bob)).toBe(10_000_000n);
    expect((await broadcast(signed)).result).toBe(true);
  });

  it('refuses a raw_data_hex that does not encode raw_data', async () => {
    const signed = await tronwebFor(node).trx.sign(await unsignedTransfer(1_000_000), KEYS.alice);
    const answer = await broadcast({ ...signed, raw_data_hex: `${signed.raw_data_hex.slice(0, -2)}00` });
    expect(answer.code).toBe('SIGERROR');
    expect(answer.text).toContain('raw_data_hex');
  });

  it('refuses unsigned transactions and malformed signatures', async () => {
    const transaction = await unsignedTransfer(1_000_000);
    expect(await broadcast(transaction)).toMatchObject({
      code: 'SIGERROR',
      text: 'Validate signature error: miss sig or contract',
    });
    expect((await broadcast({ ...transaction, signature: ['00'.repeat(65)] })).code).toBe('SIGERROR');
    expect((await broadcast({ ...transaction, signature: ['abcd'] })).text).toContain('Signature size is 2');
  });

  it('refuses the same transaction twice, in the pool and once included (DUP_TRANSACTION_ERROR)', async () => {
    const signed = await tronwebFor(node).trx.sign(await unsignedTransfer(1_000_000), KEYS.alice);
    expect((await broadcast(signed)).result).toBe(true);
    expect(await broadcast(signed)).toMatchObject({
      result: false,
      code: 'DUP_TRANSACTION_ERROR',
      text: 'Dup transaction.',
    });
    node.mine();
    expect((await broadcast(signed)).code).toBe('DUP_TRANSACTION_ERROR');
    node.mine();
    expect(node.trxBalance(ADDRESSES.bob)).toBe(11_000_000n);
  });

  it('refuses a reference block the chain does not have (TAPOS_ERROR)', async () => {
    const head = node.state();
    const transaction = await unsignedTransfer(1_000_000, {
      blockHeader: {
        ref_block_bytes: head.headBlockId.slice(12, 16),
        ref_block_hash: 'ffffffffffffffff',
        expiration: head.headTimestamp + 60_000,
        timestamp: head.headTimestamp,
      },
    });
    const signed = await tronwebFor(node).trx.sign(transaction, KEYS.alice);
    expect(await broadcast(signed)).toMatchObject({ code: 'TAPOS_ERROR', text: 'Tapos check error.' });
  });

  it('refuses an expired transaction and one expiring more than 24 h ahead (TRANSACTION_EXPIRATION_ERROR)', async () => {
    const signed = await tronwebFor(node).trx.sign(await unsignedTransfer(1_000_000), KEYS.alice);
    node.mine(21);
    expect(await broadcast(signed)).toMatchObject({
      code: 'TRANSACTION_EXPIRATION_ERROR',
      text: 'Transaction expired',
    });

    const head = node.state();
    const farAhead = await unsignedTransfer(1_000_000, {
      blockHeader: {
        ref_block_bytes: head.headBlockId.slice(12, 16),
        ref_block_hash: head.headBlockId.slice(16, 32),
        expiration: head.headTimestamp + 25 * 3_600_000,
        timestamp: head.headTimestamp,
      },
    });
    const answer = await broadcast(await tronwebFor(node).trx.sign(farAhead, KEYS.alice));
    expect(answer.code).toBe('TRANSACTION_EXPIRATION_ERROR');
  });

  it('refuses spending more TRX than the pool leaves (CONTRACT_VALIDATE_ERROR)', async () => {
    expect((await sendTrx(node, 'alice', ADDRESSES.bob, 999_000_000)).result).toBe(true);
    const second = await sendTrx(node, 'alice', ADDRESSES.carol, 999_000_000);
    expect(second.code).toBe('CONTRACT_VALIDATE_ERROR');
    expect(fromHexUtf8(second.message ?? '')).toBe(
      'Contract validate error : Validate TransferContract error, balance is not sufficient.',
    );
  });

  it('refuses a TRC-20 transfer from an address that has no account yet', async () => {
    node.mintTrc20(USDT, ADDRESSES.carol, 5n);
    const answer = await sendToken(node, 'carol', ADDRESSES.bob, 1n);
    expect(answer.code).toBe('CONTRACT_VALIDATE_ERROR');
  });

  it('refuses a TRC-20 transfer whose bandwidth is neither free nor payable (BANDWITH_ERROR)', async () => {
    node.setTrx(ADDRESSES.carol, 0n);
    node.mintTrc20(USDT, ADDRESSES.carol, 5n);
    const first = await sendToken(node, 'carol', ADDRESSES.bob, 1n);
    expect(first.result).toBe(true); // 345 free bytes; it will run out of energy on chain
    const second = await sendToken(node, 'carol', ADDRESSES.bob, 1n);
    expect(second.code).toBe('BANDWITH_ERROR');
    expect(fromHexUtf8(second.message ?? '')).toBe('Account resource insufficient error.');
  });
});
