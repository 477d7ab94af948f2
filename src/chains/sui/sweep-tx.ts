/**
 * SUI sweep transactions: sponsored, fully specified. The deposit address is the sender and gives
 * its coins of one type; the hot wallet is the gas owner and pays with its own SUI coins:
 *
 *   MergeCoins(c0, [c1…]) (when several) → TransferObjects([c0], destination)
 *
 * Both sign the same bytes. A SUI deposit is swept the same way: its coins are ordinary inputs,
 * never gas, so the whole balance moves and the hot wallet pays the fee.
 */
import { Inputs, Transaction } from '@mysten/sui/transactions';
import { ChainError } from '../errors.ts';
import type { CoinRef, ObjectRef } from './payout-tx.ts';

/** What a sweep transaction needs. */
export interface SweepTransactionInput {
  sender: string;
  gasOwner: string;
  to: string;
  coins: readonly CoinRef[];
  gasCoins: readonly ObjectRef[];
  gasPrice: bigint;
  gasBudget: bigint;
}

/** Builds the BCS `TransactionData` of a sponsored sweep; needs no network. */
export async function buildSweepTransaction(input: SweepTransactionInput): Promise<Uint8Array> {
  const tx = new Transaction();
  tx.setSender(input.sender);
  tx.setGasOwner(input.gasOwner);
  tx.setGasPrice(input.gasPrice);
  tx.setGasBudget(input.gasBudget);
  tx.setGasPayment(input.gasCoins.map(({ objectId, version, digest }) => ({ objectId, version, digest })));
  const [first, ...rest] = input.coins.map(({ objectId, version, digest }) =>
    tx.object(Inputs.ObjectRef({ objectId, version, digest })),
  );
  if (!first) throw new ChainError('bad_request', 'a sweep needs at least one coin');
  if (rest.length > 0) tx.mergeCoins(first, rest);
  tx.transferObjects([first], tx.pure.address(input.to));
  return tx.build();
}
