import { afterEach, describe, expect, it } from 'vitest';
import type { FakeTronNode } from './server.ts';
import {
  ADDRESSES,
  GENESIS,
  hexOf,
  type Json,
  post,
  sendToken,
  sendTrx,
  startTestNode,
  USDT,
} from './test-kit.ts';

/* Bandwidth, energy and activation fees in the simplified mainnet form documented in params.ts. */

describe('fees', () => {
  let node: FakeTronNode;

  afterEach(async () => {
    await node.close();
  });

  async function info(txid: string | undefined): Promise<Json> {
    return (await post(node, '/wallet/gettransactioninfobyid', { value: txid })).json;
  }

  it('pays a TRX transfer to an existing account from free bandwidth, then burns 1 000 sun per byte', async () => {
    node = await startTestNode();
    // amounts of the same varint length, so each transaction is 267 bytes like the A.4 capture
    const first = await sendTrx(node, 'alice', ADDRESSES.bob, 1_000_000);
    const second = await sendTrx(node, 'alice', ADDRESSES.bob, 1_100_000);
    const third = await sendTrx(node, 'alice', ADDRESSES.bob, 1_200_000);
    node.mine();
    expect((await info(first.txid)).receipt).toEqual({ net_usage: 267 });
    expect((await info(second.txid)).receipt).toEqual({ net_usage: 267 });
    const burnt = await info(third.txid);
    expect(burnt.fee).toBe(267_000);
    expect(burnt.receipt).toEqual({ net_fee: 267_000 });
    expect(node.trxBalance(ADDRESSES.alice)).toBe(1_000_000_000n - 3_300_000n - 267_000n);
    const { json: resource } = await post(node, '/wallet/getaccountresource', {
      address: hexOf(ADDRESSES.alice),
    });
    expect(resource.freeNetUsed).toBe(534);
  });

  it('charges 1 TRX + 0.1 TRX to activate a new account and takes it from the sender only', async () => {
    node = await startTestNode();
    const sent = await sendTrx(node, 'bob', ADDRESSES.carol, 1_000_000);
    node.mine();
    expect((await info(sent.txid)).fee).toBe(1_100_000);
    expect(node.trxBalance(ADDRESSES.bob)).toBe(10_000_000n - 1_000_000n - 1_100_000n);
    expect(node.trxBalance(ADDRESSES.carol)).toBe(1_000_000n);
    const { json } = await post(node, '/wallet/getblockbynum', { num: node.head() });
    expect(json.transactions[0].ret).toEqual([{ fee: 1_000_000, contractRet: 'SUCCESS' }]);
  });

  it('refuses an activation the sender cannot pay with the creation fee included', async () => {
    node = await startTestNode();
    const answer = await sendTrx(node, 'bob', ADDRESSES.carol, 9_500_000);
    expect(answer.code).toBe('CONTRACT_VALIDATE_ERROR');
  });

  it('burns 29 650 energy for a TRC-20 transfer to a new holder and 14 650 to an existing one, at 100 sun', async () => {
    node = await startTestNode();
    const toNew = await sendToken(node, 'alice', ADDRESSES.carol, 10n);
    node.mine();
    const toHolder = await sendToken(node, 'alice', ADDRESSES.carol, 10n);
    node.mine();
    const first = await info(toNew.txid);
    const second = await info(toHolder.txid);
    expect(first.receipt).toMatchObject({
      energy_usage_total: 29_650,
      energy_fee: 2_965_000,
      result: 'SUCCESS',
    });
    expect(second.receipt).toMatchObject({
      energy_usage_total: 14_650,
      energy_fee: 1_465_000,
      result: 'SUCCESS',
    });
    expect(first.fee).toBe(2_965_000);
    // a TRC-20 recipient does not become an account
    expect((await post(node, '/wallet/getaccount', { address: hexOf(ADDRESSES.carol) })).json).toEqual({});
  });

  it('includes a transfer whose fee_limit is too low as OUT_OF_ENERGY, burning exactly the limit', async () => {
    node = await startTestNode();
    const sent = await sendToken(node, 'alice', ADDRESSES.bob, 500n, { feeLimit: 1_000_000 });
    expect(sent.result).toBe(true);
    node.mine();
    const failed = await info(sent.txid);
    expect(failed).toMatchObject({
      fee: 1_000_000,
      contractResult: [''],
      contract_address: hexOf(USDT),
      // 344 bytes, not 345: fee_limit 1 000 000 is one varint byte shorter than 50 000 000
      receipt: { energy_fee: 1_000_000, energy_usage_total: 10_000, net_usage: 344, result: 'OUT_OF_ENERGY' },
      result: 'FAILED',
    });
    expect(failed).not.toHaveProperty('log');
    expect(Buffer.from(failed.resMessage, 'hex').toString()).toMatch(/^Not enough energy/);
    expect(node.trc20Balance(USDT, ADDRESSES.bob)).toBe(0n);
    expect(node.trc20Balance(USDT, ADDRESSES.alice)).toBe(1_000_000_000n);
    expect(node.trxBalance(ADDRESSES.alice)).toBe(999_000_000n);
    const { json: block } = await post(node, '/wallet/getblockbynum', { num: node.head() });
    expect(block.transactions[0].ret).toEqual([{ contractRet: 'OUT_OF_ENERGY' }]);
  });

  it('runs out of energy when the TRX balance, not the fee_limit, is the limit', async () => {
    node = await startTestNode();
    node.setTrx(ADDRESSES.alice, 500_000n);
    const sent = await sendToken(node, 'alice', ADDRESSES.bob, 1n, { feeLimit: 100_000_000 });
    node.mine();
    const failed = await info(sent.txid);
    expect(failed.receipt).toMatchObject({
      energy_usage_total: 5_000,
      energy_fee: 500_000,
      result: 'OUT_OF_ENERGY',
    });
    expect(node.trxBalance(ADDRESSES.alice)).toBe(0n);
  });

  it('uses staked energy before burning TRX and reports it in getaccountresource', async () => {
    node = await startTestNode({
      ...GENESIS,
      accounts: [
        { address: ADDRESSES.alice, trx: 100_000_000n, tokens: { USDT: 100n }, stakedEnergy: 20_000 },
      ],
    });
    const sent = await sendToken(node, 'alice', ADDRESSES.bob, 1n);
    node.mine();
    const receipt = (await info(sent.txid)).receipt;
    expect(receipt).toMatchObject({ energy_usage: 20_000, energy_fee: 965_000, energy_usage_total: 29_650 });
    const { json } = await post(node, '/wallet/getaccountresource', { address: hexOf(ADDRESSES.alice) });
    expect(json).toMatchObject({ EnergyLimit: 20_000, EnergyUsed: 20_000 });
  });

  it('includes a transfer of more tokens than held as REVERT: fee paid, no log, balances unchanged', async () => {
    node = await startTestNode();
    const sent = await sendToken(node, 'alice', ADDRESSES.bob, 1_000_000_001n);
    node.mine();
    const reverted = await info(sent.txid);
    expect(reverted.result).toBe('FAILED');
    expect(reverted.receipt.result).toBe('REVERT');
    expect(Buffer.from(reverted.resMessage, 'hex').toString()).toBe('REVERT opcode executed');
    expect(reverted).not.toHaveProperty('log');
    expect(reverted.fee).toBeGreaterThan(0);
    expect(node.trc20Balance(USDT, ADDRESSES.alice)).toBe(1_000_000_000n);
  });

  it('estimates a transfer with estimateenergy and triggerconstantcontract without changing state', async () => {
    node = await startTestNode();
    const parameter = `000000000000000000000000${hexOf(ADDRESSES.carol).slice(2)}${1n.toString(16).padStart(64, '0')}`;
    const request = {
      owner_address: hexOf(ADDRESSES.alice),
      contract_address: hexOf(USDT),
      function_selector: 'transfer(address,uint256)',
      parameter,
    };
    expect((await post(node, '/wallet/estimateenergy', request)).json).toEqual({
      result: { result: true },
      energy_required: 29_650,
    });
    const constant = (await post(node, '/wallet/triggerconstantcontract', request)).json;
    expect(constant.energy_used).toBe(29_650);
    expect(constant.constant_result).toEqual(['0'.repeat(64)]);
    expect(node.trc20Balance(USDT, ADDRESSES.carol)).toBe(0n);
  });
});
