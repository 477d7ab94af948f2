import { describe, expect, it } from 'vitest';
import { depositsInCheckpoint, normalizeCoinType, SUI_COIN_TYPE, tokensByCoinType } from './deposits.ts';
import type { Checkpoint } from './grpc.ts';

const USDC = `0x${'ab'.repeat(32)}::usdc::USDC`;
const watchedAddress = `0x${'0'.repeat(62)}42`;
const other = `0x${'77'.repeat(32)}`;

function checkpoint(transactions: Checkpoint['transactions']): Checkpoint {
  return {
    sequenceNumber: 12n,
    digest: 'CkptDigest',
    summary: { timestamp: { seconds: 1_780_000_000n, nanos: 5 } },
    transactions,
  } as Checkpoint;
}

function tx(
  digest: string,
  success: boolean,
  changes: [string, string, string][],
): Checkpoint['transactions'][number] {
  return {
    digest,
    transaction: { sender: other },
    effects: { status: { success } },
    balanceChanges: changes.map(([address, coinType, amount]) => ({ address, coinType, amount })),
  } as Checkpoint['transactions'][number];
}

const watched = tokensByCoinType([
  { symbol: 'USDC', contract: USDC, decimals: 6 },
  { symbol: 'SUI', contract: null, decimals: 9 },
]);

describe('depositsInCheckpoint', () => {
  it('turns positive balance changes to watched addresses into transfers keyed by owner and coin type', () => {
    const found = depositsInCheckpoint(
      checkpoint([
        tx('A', true, [
          [other, USDC, '-5000000'],
          ['0x42', USDC, '5000000'], // short spelling of the watched address
          [other, '0x2::sui::SUI', '-1000'],
        ]),
      ]),
      new Set([watchedAddress]),
      watched,
    );
    expect(found).toEqual([
      {
        txid: 'A',
        eventKey: `${watchedAddress}:${USDC}`,
        blockNum: 12,
        blockHash: 'CkptDigest',
        timestamp: 1_780_000_000,
        from: other,
        to: watchedAddress,
        contract: USDC,
        amountBase: 5_000_000n,
        success: true,
      },
    ]);
  });

  it('maps any spelling of SUI to the native token (contract null) and skips tokens not watched', () => {
    const found = depositsInCheckpoint(
      checkpoint([
        tx('B', true, [
          [watchedAddress, `0x${'0'.repeat(63)}2::sui::SUI`, '7'],
          [watchedAddress, `0x${'cd'.repeat(32)}::fake::USDC`, '9'],
        ]),
      ]),
      new Set([watchedAddress]),
      watched,
    );
    expect(found.map((t) => [t.contract, t.amountBase, t.eventKey])).toEqual([
      [null, 7n, `${watchedAddress}:${SUI_COIN_TYPE}`],
    ]);
  });

  it('never credits a failed transaction: its SUI change is gas, anything else is reported unsuccessful', () => {
    const found = depositsInCheckpoint(
      checkpoint([
        tx('C', false, [
          [watchedAddress, '0x2::sui::SUI', '100'], // a storage rebate, never a payment
          [watchedAddress, USDC, '5'],
        ]),
      ]),
      new Set([watchedAddress]),
      watched,
    );
    expect(found.map((t) => [t.txid, t.contract, t.success])).toEqual([['C', USDC, false]]);
  });

  it('ignores debits, zero changes and addresses nobody watches', () => {
    const found = depositsInCheckpoint(
      checkpoint([
        tx('D', true, [
          [watchedAddress, USDC, '-5'],
          [watchedAddress, USDC, '0'],
          [other, USDC, '5'],
        ]),
      ]),
      new Set([watchedAddress]),
      watched,
    );
    expect(found).toEqual([]);
  });
});

describe('coin types', () => {
  it('normalises struct tags and rejects what is not one', () => {
    expect(normalizeCoinType('0x2::sui::SUI')).toBe(SUI_COIN_TYPE);
    expect(SUI_COIN_TYPE).toBe(`0x${'0'.repeat(63)}2::sui::SUI`);
    expect(normalizeCoinType('not a type')).toBeNull();
    expect(tokensByCoinType([{ symbol: 'X', contract: 'nonsense', decimals: 6 }]).size).toBe(0);
  });
});
