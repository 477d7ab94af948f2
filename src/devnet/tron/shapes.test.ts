import { createHash } from 'node:crypto';
import { utils } from 'tronweb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FakeTronNode } from './server.ts';
import {
  ADDRESSES,
  fromHexUtf8,
  hexOf,
  type Json,
  post,
  sendToken,
  sendTrx,
  startTestNode,
  USDT,
} from './test-kit.ts';

/*
 * The fake's JSON against the real captures of chains.md part A (A.4): same fields, same
 * encodings, defaults omitted, `{}` for not-found, java-tron's error bodies.
 */

/** Real mainnet TransactionInfo of a USDT transfer (A.4, block 69316562). */
const CAPTURED_TRC20_INFO = {
  id: '0130dfde9281a48378109039ef512229d5359fbee2a8adbb17ad73aebc67ea99',
  fee: 26420100,
  blockNumber: 69316562,
  blockTimeStamp: 1738601505000,
  contractResult: ['0000000000000000000000000000000000000000000000000000000000000000'],
  contract_address: '41a614f803b6fd780986a42c78ec9c7f77e6ded13c',
  receipt: {
    energy_usage: 4475,
    energy_fee: 26420100,
    energy_usage_total: 130285,
    net_usage: 345,
    result: 'SUCCESS',
    energy_penalty_total: 100635,
  },
  log: [
    {
      address: 'a614f803b6fd780986a42c78ec9c7f77e6ded13c',
      topics: [
        'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
        '0000000000000000000000006e3b44b96104b26f84057974a1f0c9880f7c9b13',
        '000000000000000000000000ec20315a879c48f5e3a6a1c9826d5225f8b658b8',
      ],
      data: '00000000000000000000000000000000000000000000000000000000027bf24d',
    },
  ],
};

/** Real Nile triggersmartcontract answer (A.4). */
const CAPTURED_TRIGGER = {
  request: {
    owner_address: '41dd791d6b49e190062d650e6a23c575510d35f2f9',
    contract_address: '41eca9bc828a3005b9a3b909f2cc5c2a54794de05f',
    function_selector: 'transfer(address,uint256)',
    parameter:
      '000000000000000000000000088a2bfcb1c7271029fd69a66859d555608958840000000000000000000000000000000000000000000000000000000000000064',
    fee_limit: 100000000,
    call_value: 0,
  },
  header: {
    ref_block_bytes: '28c3',
    ref_block_hash: 'ce6d340282788569',
    expiration: 1777447227000,
    timestamp: 1777447168009,
  },
  txID: '8c621a0dc9bd4d405b20d0a43143955b9f546f98bbfde1aec295a65b0f925629',
  rawDataHex:
    '0a0228c32208ce6d34028278856940f89cf1c0dd335aae01081f12a9010a31747970652e676f6f676c65617069732e636f6d2f70726f746f636f6c2e54726967676572536d617274436f6e747261637412740a1541dd791d6b49e190062d650e6a23c575510d35f2f9121541eca9bc828a3005b9a3b909f2cc5c2a54794de05f2244a9059cbb000000000000000000000000088a2bfcb1c7271029fd69a66859d5556089588400000000000000000000000000000000000000000000000000000000000000647089d0edc0dd33900180c2d72f',
};

/** Real Nile createtransaction answer (A.4). */
const CAPTURED_CREATE = {
  request: {
    owner_address: '41dd791d6b49e190062d650e6a23c575510d35f2f9',
    to_address: '4192ad11c1bf16b3b14b0bd6b5c7e2db73a0b5e83a',
    amount: 1000000,
  },
  header: {
    ref_block_bytes: '2927',
    ref_block_hash: '939ece39d08a7abe',
    expiration: 1777447527000,
    timestamp: 1777447470038,
  },
  txID: '6303c7639f591407ef9f34a7ac8c9c9a21151f5a6af21924502515734fc267ab',
};

const NILE_OWNER = 'TWAFRfZFmhVQZjxM3De7Mp5UZ9sLqWqpHp';
const NILE_USDT = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';

/** Swaps the time-dependent header fields for the capture's and re-encodes with tronweb's encoder. */
function reencode(transaction: Json, header: Record<string, unknown>): { txID: string; rawDataHex: string } {
  const pb = utils.transaction.txJsonToPb({
    ...transaction,
    raw_data: { ...transaction.raw_data, ...header },
  });
  return {
    txID: String(utils.transaction.txPbToTxID(pb)).replace(/^0x/, ''),
    rawDataHex: String(utils.transaction.txPbToRawDataHex(pb)).toLowerCase(),
  };
}

function keysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [keysDeep(value[0])];
  if (typeof value !== 'object' || value === null) return typeof value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, member]) => [key, keysDeep(member)]),
  );
}

describe('fake TRON node wire shapes', () => {
  let node: FakeTronNode;

  beforeEach(async () => {
    node = await startTestNode();
  });

  afterEach(async () => {
    await node.close();
  });

  it('prints blocks like java-tron: id = 8-byte number + hash, chained parentHash, no `transactions` when empty', async () => {
    const { json: head } = await post(node, '/wallet/getnowblock');
    const { json: parent } = await post(node, '/wallet/getblockbynum', { num: node.head() - 1 });
    expect(keysDeep(head)).toEqual({
      blockID: 'string',
      block_header: {
        raw_data: {
          number: 'number',
          parentHash: 'string',
          timestamp: 'number',
          txTrieRoot: 'string',
          version: 'number',
          witness_address: 'string',
        },
        witness_signature: 'string',
      },
    });
    expect(head.blockID).toMatch(/^[0-9a-f]{64}$/);
    expect(head.blockID.slice(0, 16)).toBe(node.head().toString(16).padStart(16, '0'));
    expect(head.block_header.raw_data.parentHash).toBe(parent.blockID);
    expect(head.block_header.raw_data.witness_address).toMatch(/^41[0-9a-f]{40}$/);
    expect(head.block_header.witness_signature).toMatch(/^[0-9a-f]{130}$/);
    expect(head.block_header.raw_data.version).toBe(34);
  });

  it('lists transactions in a block and leaves them out with detail:false', async () => {
    await sendTrx(node, 'alice', ADDRESSES.bob, 1_000_000);
    node.mine();
    const { json: full } = await post(node, '/wallet/getblockbynum', { num: node.head() });
    const { json: header } = await post(node, '/wallet/getblock', {
      id_or_num: String(node.head()),
      detail: false,
    });
    const { json: byId } = await post(node, '/wallet/getblock', { id_or_num: full.blockID, detail: true });
    expect(full.transactions).toHaveLength(1);
    expect(header.blockID).toBe(full.blockID);
    expect(header).not.toHaveProperty('transactions');
    expect(byId.transactions).toEqual(full.transactions);
  });

  it('answers {} for what it does not have, [] for a block beyond the head, {} for num <= 0', async () => {
    const unknownId = 'ab'.repeat(32);
    const future = node.head() + 5;
    expect((await post(node, '/wallet/getblockbynum', { num: future })).json).toEqual({});
    expect((await post(node, '/walletsolidity/getblockbynum', { num: node.head() })).json).toEqual({});
    expect((await post(node, '/wallet/gettransactionbyid', { value: unknownId })).json).toEqual({});
    expect((await post(node, '/wallet/gettransactioninfobyid', { value: unknownId })).json).toEqual({});
    expect((await post(node, '/wallet/getaccount', { address: hexOf(ADDRESSES.carol) })).json).toEqual({});
    expect(
      (await post(node, '/wallet/getaccountresource', { address: hexOf(ADDRESSES.carol) })).json,
    ).toEqual({});
    expect((await post(node, '/wallet/getcontract', { value: hexOf(ADDRESSES.carol) })).json).toEqual({});
    expect(
      (await post(node, '/wallet/getblockbylimitnext', { startNum: future, endNum: future + 2 })).json,
    ).toEqual({});
    expect((await post(node, '/wallet/gettransactioninfobyblocknum', { num: future })).json).toEqual([]);
    expect((await post(node, '/wallet/gettransactioninfobyblocknum', { num: 0 })).json).toEqual({});
  });

  it('prints a TRC-20 transfer TransactionInfo with the fields and encodings of the mainnet capture', async () => {
    const sent = await sendToken(node, 'alice', ADDRESSES.bob, 41_677_389n);
    node.mine();
    const { json } = await post(node, '/wallet/gettransactioninfobyblocknum', { num: node.head() });
    expect(json).toHaveLength(1);
    const info = json[0];
    // Same members as the capture, minus what needs staked energy or USDT's dynamic energy factor.
    const {
      energy_usage: _staked,
      energy_penalty_total: _penalty,
      ...capturedReceipt
    } = CAPTURED_TRC20_INFO.receipt;
    expect(keysDeep(info)).toEqual(keysDeep({ ...CAPTURED_TRC20_INFO, receipt: capturedReceipt }));
    expect(info.id).toBe(sent.txid);
    expect(info.contract_address).toBe(hexOf(USDT));
    expect(info.contractResult).toEqual(CAPTURED_TRC20_INFO.contractResult);
    expect(info.receipt.result).toBe('SUCCESS');
    expect(info).not.toHaveProperty('result');
    const [log] = info.log;
    expect(log.address).toBe(CAPTURED_TRC20_INFO.log[0]!.address);
    expect(log.topics[0]).toBe(CAPTURED_TRC20_INFO.log[0]!.topics[0]);
    expect(log.topics[1]).toBe(`000000000000000000000000${hexOf(ADDRESSES.alice).slice(2)}`);
    expect(log.topics[2]).toBe(`000000000000000000000000${hexOf(ADDRESSES.bob).slice(2)}`);
    expect(log.data).toBe(CAPTURED_TRC20_INFO.log[0]!.data);
    expect(info.receipt.net_usage).toBe(CAPTURED_TRC20_INFO.receipt.net_usage);
  });

  it('prints a TRX transfer that creates its recipient as in the capture: fee 1.1 TRX, net_fee 0.1 TRX', async () => {
    const sent = await sendTrx(node, 'alice', ADDRESSES.carol, 5_000_000);
    node.mine();
    const { json } = await post(node, '/wallet/gettransactioninfobyid', { value: sent.txid });
    expect(json).toEqual({
      id: sent.txid,
      fee: 1_100_000,
      blockNumber: node.head(),
      blockTimeStamp: node.state().headTimestamp,
      contractResult: [''],
      receipt: { net_fee: 100_000 },
    });
  });

  it('prints gettransactionbyid like the capture, with txID = sha256(raw_data_hex) and call_value left out', async () => {
    const sent = await sendToken(node, 'alice', ADDRESSES.bob, 1n);
    node.mine();
    const { json } = await post(node, '/wallet/gettransactionbyid', { value: sent.txid });
    expect(Object.keys(json)).toEqual(['ret', 'signature', 'txID', 'raw_data', 'raw_data_hex']);
    expect(json.ret).toEqual([{ contractRet: 'SUCCESS' }]);
    expect(json.signature[0]).toMatch(/^[0-9a-f]{130}$/);
    expect(createHash('sha256').update(Buffer.from(json.raw_data_hex, 'hex')).digest('hex')).toBe(json.txID);
    const [contract] = json.raw_data.contract;
    expect(contract.type).toBe('TriggerSmartContract');
    expect(contract.parameter.type_url).toBe('type.googleapis.com/protocol.TriggerSmartContract');
    expect(Object.keys(contract.parameter.value).sort()).toEqual([
      'contract_address',
      'data',
      'owner_address',
    ]);
    expect(Object.keys(json.raw_data).sort()).toEqual([
      'contract',
      'expiration',
      'fee_limit',
      'ref_block_bytes',
      'ref_block_hash',
      'timestamp',
    ]);
  });

  it('builds triggersmartcontract byte-for-byte like java-tron (the Nile capture re-encodes to its txID)', async () => {
    node.setTrx(NILE_OWNER, 100_000_000n);
    node.deployTrc20({ symbol: 'USDT', name: 'Tether USD', decimals: 6, address: NILE_USDT });
    const { json } = await post(node, '/wallet/triggersmartcontract', CAPTURED_TRIGGER.request);
    expect(json.result).toEqual({ result: true });
    expect(Object.keys(json.transaction).sort()).toEqual(['raw_data', 'raw_data_hex', 'txID', 'visible']);
    expect(json.transaction.visible).toBe(false);
    expect(json.transaction.raw_data.fee_limit).toBe(100_000_000);
    expect(reencode(json.transaction, {})).toEqual({
      txID: json.transaction.txID,
      rawDataHex: json.transaction.raw_data_hex,
    });
    expect(reencode(json.transaction, CAPTURED_TRIGGER.header)).toEqual({
      txID: CAPTURED_TRIGGER.txID,
      rawDataHex: CAPTURED_TRIGGER.rawDataHex,
    });
    // java-tron takes the reference block from the solidified block and expires 60 s after the head.
    expect(json.transaction.raw_data.ref_block_hash).toBe(node.state().solidBlockId.slice(16, 32));
    expect(json.transaction.raw_data.expiration).toBe(node.state().headTimestamp + 60_000);
  });

  it('builds createtransaction byte-for-byte like java-tron (the Nile capture re-encodes to its txID)', async () => {
    node.setTrx(NILE_OWNER, 100_000_000n);
    const { json } = await post(node, '/wallet/createtransaction', CAPTURED_CREATE.request);
    expect(json.raw_data.contract[0].parameter.value).toEqual(CAPTURED_CREATE.request);
    expect(reencode(json, CAPTURED_CREATE.header).txID).toBe(CAPTURED_CREATE.txID);
  });

  it('answers triggerconstantcontract balanceOf like the capture: energy 935, one 32-byte word, ret [{}]', async () => {
    const parameter = `000000000000000000000000${hexOf(ADDRESSES.alice).slice(2)}`;
    const { json } = await post(node, '/wallet/triggerconstantcontract', {
      owner_address: hexOf(ADDRESSES.alice),
      contract_address: hexOf(USDT),
      function_selector: 'balanceOf(address)',
      parameter,
    });
    expect(Object.keys(json).sort()).toEqual(['constant_result', 'energy_used', 'result', 'transaction']);
    expect(json.result).toEqual({ result: true });
    expect(json.energy_used).toBe(935);
    expect(json.constant_result).toEqual([(1_000_000_000).toString(16).padStart(64, '0')]);
    expect(json.transaction.ret).toEqual([{}]);
    expect(json.transaction.raw_data.contract[0].parameter.value.data).toBe(`70a08231${parameter}`);
  });

  it('answers a reverting constant call with result.message and ret FAILED, and an Error(string) result', async () => {
    const { json } = await post(node, '/wallet/triggerconstantcontract', {
      owner_address: hexOf(ADDRESSES.bob),
      contract_address: hexOf(USDT),
      function_selector: 'transfer(address,uint256)',
      parameter: `000000000000000000000000${hexOf(ADDRESSES.alice).slice(2)}${5n.toString(16).padStart(64, '0')}`,
    });
    expect(json.result.result).toBe(true);
    expect(fromHexUtf8(json.result.message)).toBe('REVERT opcode executed');
    expect(json.transaction.ret).toEqual([{ ret: 'FAILED' }]);
    expect(json.constant_result[0].slice(0, 8)).toBe('08c379a0');
  });

  it('prints accounts with proto3 defaults omitted: no `balance` key at 0 TRX', async () => {
    node.setTrx(ADDRESSES.carol, 0n);
    const { json } = await post(node, '/wallet/getaccount', { address: hexOf(ADDRESSES.carol) });
    expect(json.address).toBe(hexOf(ADDRESSES.carol));
    expect(json).not.toHaveProperty('balance');
    const { json: alice } = await post(node, '/wallet/getaccount', { address: hexOf(ADDRESSES.alice) });
    expect(alice.balance).toBe(1_000_000_000);
    expect(alice.owner_permission.keys).toEqual([{ address: hexOf(ADDRESSES.alice), weight: 1 }]);
    const { json: resource } = await post(node, '/wallet/getaccountresource', {
      address: hexOf(ADDRESSES.alice),
    });
    expect(resource).toEqual({
      freeNetLimit: 600,
      TotalNetLimit: 43_200_000_000,
      TotalNetWeight: 68_305_209_098,
      TotalEnergyLimit: 180_000_000_000,
      TotalEnergyWeight: 2_411_528_185,
    });
  });

  it('answers broadcasts with {result, txid} and failures with {result:false, code, hex message, txid}', async () => {
    const ok = await sendTrx(node, 'alice', ADDRESSES.bob, 1_000);
    expect(Object.keys(ok).sort()).toEqual(['result', 'transaction', 'txid']);
    expect(ok.result).toBe(true);
    const again = await post(node, '/wallet/broadcasttransaction', ok.transaction);
    expect(again.json).toEqual({
      result: false,
      code: 'DUP_TRANSACTION_ERROR',
      message: Buffer.from('Dup transaction.').toString('hex'),
      txid: ok.txid,
    });
  });

  it('answers java-tron style errors with HTTP 200 and an Error body', async () => {
    const malformed = await post(node, '/wallet/broadcasttransaction', { txID: 'ab' });
    expect(malformed).toEqual({
      status: 200,
      json: { Error: 'class java.lang.NullPointerException : null' },
    });
    const poor = await post(node, '/wallet/createtransaction', {
      owner_address: hexOf(ADDRESSES.bob),
      to_address: hexOf(ADDRESSES.alice),
      amount: 20_000_000,
    });
    expect(poor).toEqual({
      status: 200,
      json: {
        Error:
          'class org.tron.core.exception.ContractValidateException : Validate TransferContract error, balance is not sufficient.',
      },
    });
    const negative = await post(node, '/wallet/getblock', { id_or_num: '-1' });
    expect(negative.json).toEqual({ Error: 'num must be non-positive number.' });
    const noContract = await post(node, '/wallet/triggersmartcontract', {
      owner_address: hexOf(ADDRESSES.alice),
      contract_address: hexOf(ADDRESSES.bob),
      function_selector: 'transfer(address,uint256)',
      parameter: '',
      fee_limit: 1,
    });
    expect(noContract.json.result.code).toBe('CONTRACT_VALIDATE_ERROR');
    expect(fromHexUtf8(noContract.json.result.message)).toBe('No contract or not a valid smart contract');
    const base58 = await post(node, '/wallet/getaccount', { address: ADDRESSES.alice });
    expect(base58.json.Error).toMatch(/^class java\.lang\.IllegalArgumentException : /);
    expect((await fetch(`${node.url}/wallet/nosuchapi`, { method: 'POST' })).status).toBe(404);
  });

  it('prints int64 fields as strings on GET with int64_as_string=true', async () => {
    const response = await fetch(`${node.url}/wallet/getblock?detail=true&int64_as_string=true`);
    const block = (await response.json()) as Json;
    expect(block.block_header.raw_data.number).toBe(String(node.head()));
    expect(block.block_header.raw_data.timestamp).toBe(String(node.state().headTimestamp));
    expect(block.block_header.raw_data.version).toBe(34);
  });
});
