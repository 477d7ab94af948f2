import { describe, expect, it } from 'vitest';
import { parseTronJson } from './http.ts';
import {
  assertInfosMatch,
  blockRef,
  nativeTransfers,
  needsInfos,
  TRANSFER_TOPIC,
  tokenTransfers,
  type Watch,
} from './wire.ts';

const USDT20 = 'a614f803b6fd780986a42c78ec9c7f77e6ded13c';
const FROM20 = '6e3b44b96104b26f84057974a1f0c9880f7c9b13'; // TL24LCps5FKwp3PoU1MvrYrwhi5LU1tHre
const TO20 = 'ec20315a879c48f5e3a6a1c9826d5225f8b658b8'; // TXVj38D1XR3TPgSHTCZGC8wkLDAGqF1oqx
const TXID = '0130dfde9281a48378109039ef512229d5359fbee2a8adbb17ad73aebc67ea99';
const word = (hex20: string) => hex20.padStart(64, '0');

/** The real mainnet TransactionInfo of chains.md A.4 (USDT, recipient held none before). */
const CAPTURE = {
  id: TXID,
  fee: 26420100,
  blockNumber: 69316562,
  blockTimeStamp: 1738601505000,
  contractResult: ['0000000000000000000000000000000000000000000000000000000000000000'],
  contract_address: `41${USDT20}`,
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
      address: USDT20,
      topics: [TRANSFER_TOPIC, word(FROM20), word(TO20)],
      data: '00000000000000000000000000000000000000000000000000000000027bf24d',
    },
  ],
};

function blockWith(number: number, id: string, txs: unknown[], timestamp = 1738601505000) {
  return {
    blockID: id,
    block_header: { raw_data: { number, timestamp, parentHash: '00'.repeat(32) } },
    transactions: txs,
  };
}

const CALL_TX = {
  txID: TXID,
  ret: [{ contractRet: 'SUCCESS' }],
  raw_data: { contract: [{ type: 'TriggerSmartContract', parameter: { value: {} } }] },
};
const BLOCK = blockWith(69316562, `000000000421b4d2${'ab'.repeat(24)}`, [CALL_TX]);

const watch = (extra: Partial<Watch> = {}): Watch => ({
  addresses: new Map([[TO20, 'TXVj38D1XR3TPgSHTCZGC8wkLDAGqF1oqx']]),
  tokens: new Map([[USDT20, 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t']]),
  native: true,
  ...extra,
});

describe('reading deposits out of TRON blocks and TransactionInfo', () => {
  it('decodes the real USDT capture: base58 addresses, the configured contract, exact amount, success although transfer returned false', () => {
    expect(tokenTransfers(BLOCK, [CAPTURE], watch())).toEqual([
      {
        txid: TXID,
        eventKey: '0',
        blockNum: 69316562,
        blockHash: BLOCK.blockID,
        timestamp: 1738601505,
        from: 'TL24LCps5FKwp3PoU1MvrYrwhi5LU1tHre',
        to: 'TXVj38D1XR3TPgSHTCZGC8wkLDAGqF1oqx',
        contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        amountBase: 41_677_389n,
        success: true,
      },
    ]);
  });

  it('keys a transfer by its position among ALL logs of its transaction, so the key is the same wherever the transaction lands', () => {
    const approval = {
      address: USDT20,
      topics: ['8c5be1e5'.padEnd(64, '0'), word(FROM20), word(TO20)],
      data: word('1'),
    };
    const second = { ...CAPTURE.log[0], data: word('2') };
    const info = { ...CAPTURE, log: [approval, CAPTURE.log[0], second] };
    const here = tokenTransfers(BLOCK, [info], watch());
    expect(here.map((t) => [t.eventKey, t.amountBase])).toEqual([
      ['1', 41_677_389n],
      ['2', 2n],
    ]);
    const elsewhere = blockWith(69316570, `000000000421b4da${'cd'.repeat(24)}`, [CALL_TX], 1738601529000);
    const there = tokenTransfers(elsewhere, [{ ...info, blockNumber: 69316570 }], watch());
    expect(there.map((t) => `${t.txid}|${t.eventKey}`)).toEqual(here.map((t) => `${t.txid}|${t.eventKey}`));
    expect(there[0]?.blockHash).not.toBe(here[0]?.blockHash);
  });

  it('marks a transfer of a failed transaction as not successful, and ignores other tokens and other recipients', () => {
    const failed = { ...CAPTURE, result: 'FAILED', receipt: { ...CAPTURE.receipt, result: 'OUT_OF_ENERGY' } };
    expect(tokenTransfers(BLOCK, [failed], watch())[0]?.success).toBe(false);
    const lookalike = { ...CAPTURE, log: [{ ...CAPTURE.log[0], address: 'ff'.repeat(20) }] };
    expect(tokenTransfers(BLOCK, [lookalike], watch())).toEqual([]);
    expect(tokenTransfers(BLOCK, [CAPTURE], watch({ addresses: new Map([[FROM20, 'x']]) }))).toEqual([]);
  });

  it('reads a Transfer declared without indexed arguments (all three in data)', () => {
    const flat = {
      ...CAPTURE,
      log: [{ address: USDT20, topics: [TRANSFER_TOPIC], data: word(FROM20) + word(TO20) + word('64') }],
    };
    expect(tokenTransfers(BLOCK, [flat], watch())[0]).toMatchObject({ amountBase: 100n, eventKey: '0' });
  });

  it('finds TRX deposits in TransferContract transactions, amounts exact beyond 2^53', () => {
    const json = parseTronJson(
      JSON.stringify(
        blockWith(5, `0000000000000005${'ee'.repeat(24)}`, [
          {
            txID: 'aa'.repeat(32),
            ret: [{ contractRet: 'SUCCESS' }],
            raw_data: {
              contract: [
                {
                  type: 'TransferContract',
                  parameter: { value: { amount: 0, owner_address: `41${FROM20}`, to_address: `41${TO20}` } },
                },
              ],
            },
          },
        ]),
      ).replace('"amount":0', '"amount":90071992547409931'),
    );
    expect(nativeTransfers(json, watch())).toMatchObject([
      {
        eventKey: 'native',
        contract: null,
        amountBase: 90_071_992_547_409_931n,
        from: 'TL24LCps5FKwp3PoU1MvrYrwhi5LU1tHre',
        success: true,
      },
    ]);
    expect(nativeTransfers(json, watch({ native: false }))).toEqual([]);
    expect(needsInfos(json)).toBe(false);
    expect(needsInfos(BLOCK)).toBe(true);
  });

  it('refuses TransactionInfo that does not belong to the block read (a fork between the two requests)', () => {
    expect(() => assertInfosMatch(BLOCK, [CAPTURE])).not.toThrow();
    expect(() => assertInfosMatch(BLOCK, [])).toThrow(/changed while it was read/);
    expect(() => assertInfosMatch(BLOCK, [{ ...CAPTURE, blockTimeStamp: 1 }])).toThrow(/changed/);
    expect(blockRef(BLOCK)).toEqual({ number: 69316562, hash: BLOCK.blockID, timestamp: 1738601505 });
  });
});
