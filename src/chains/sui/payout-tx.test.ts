import { bcs } from '@mysten/sui/bcs';
import { describe, expect, it } from 'vitest';
import {
  buildPayoutTransaction,
  type CoinRef,
  decodeRaw,
  encodeRaw,
  ownedInputs,
  selectCoins,
  transactionDigest,
} from './payout-tx.ts';

const id = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const DIGEST = '4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi'; // 32 bytes, base58
const coin = (n: number, balance: bigint): CoinRef => ({
  objectId: id(n),
  version: String(n),
  digest: DIGEST,
  balance,
});
const sender = id(0xaa);
const to = id(0xbb);

describe('selectCoins', () => {
  it('takes the largest coins first until the target is reached', () => {
    const pick = selectCoins([coin(1, 5n), coin(2, 50n), coin(3, 20n), coin(4, 30n)], 60n);
    expect(pick.coins.map((c) => c.balance)).toEqual([50n, 30n]);
    expect(pick).toMatchObject({ total: 80n, enough: true });
  });

  it('says when even the largest `max` coins do not reach the target', () => {
    expect(selectCoins([coin(1, 5n), coin(2, 6n), coin(3, 7n)], 15n, 2)).toMatchObject({
      total: 13n,
      enough: false,
    });
    expect(selectCoins([], 1n)).toMatchObject({ coins: [], enough: false });
  });
});

describe('payout transactions', () => {
  const common = { sender, to, gasPrice: 1000n, gasBudget: 5_000_000n, gasCoins: [coin(9, 10n ** 9n)] };

  it('merges several token coins, splits the amount off and never pays gas with them', async () => {
    const bytes = await buildPayoutTransaction({
      ...common,
      amount: 70n,
      tokenCoins: [coin(1, 50n), coin(2, 30n)],
    });
    const data = bcs.TransactionData.parse(bytes).V1!;
    expect(data.kind.ProgrammableTransaction!.commands.map((c) => c.$kind)).toEqual([
      'MergeCoins',
      'SplitCoins',
      'TransferObjects',
    ]);
    expect(data.gasData.payment.map((p) => p.objectId)).toEqual([id(9)]);
    expect(data.gasData).toMatchObject({ price: '1000', budget: '5000000' });
    expect(ownedInputs(bytes).map((r) => [r.objectId, r.version])).toEqual([
      [id(9), '9'],
      [id(1), '1'],
      [id(2), '2'],
    ]);
  });

  it('hands over the coin itself when it holds the amount exactly, and splits SUI from gas', async () => {
    const exact = await buildPayoutTransaction({ ...common, amount: 50n, tokenCoins: [coin(1, 50n)] });
    expect(
      bcs.TransactionData.parse(exact).V1!.kind.ProgrammableTransaction!.commands.map((c) => c.$kind),
    ).toEqual(['TransferObjects']);
    const native = await buildPayoutTransaction({ ...common, amount: 5n, tokenCoins: null });
    const cmds = bcs.TransactionData.parse(native).V1!.kind.ProgrammableTransaction!.commands;
    expect(cmds.map((c) => c.$kind)).toEqual(['SplitCoins', 'TransferObjects']);
    expect(cmds[0]?.SplitCoins?.coin.$kind).toBe('GasCoin');
  });

  it('stores bytes and signature as JSON of base64 and reads them back unchanged', async () => {
    const bytes = await buildPayoutTransaction({ ...common, amount: 5n, tokenCoins: null });
    const raw = encodeRaw({ bytes, signature: 'c2ln' });
    expect(JSON.parse(raw)).toEqual({ tx: expect.any(String), signature: 'c2ln' });
    const back = decodeRaw(raw);
    expect(Buffer.from(back.bytes).equals(Buffer.from(bytes))).toBe(true);
    expect(transactionDigest(back.bytes)).toBe(transactionDigest(bytes));
    expect(() => decodeRaw('{"tx":1}')).toThrow(/not a signed SUI transaction/);
  });
});
