/**
 * SUI payout transactions, fully specified (SDK 1.45 cannot resolve anything through the gRPC
 * client): gas payment refs, price and budget are set here, and token coins enter as object refs.
 *
 *   native SUI: SplitCoins(GasCoin, [amount]) → TransferObjects([coin], to)
 *   token:      MergeCoins(c0, [c1…]) (when several) → SplitCoins(c0, [amount]) → TransferObjects
 *               (or TransferObjects([c0]) when the coins add up to the amount exactly)
 *
 * A token coin never pays gas; gas comes from the hot wallet's SUI coins only.
 */
import { bcs } from '@mysten/sui/bcs';
import { Inputs, Transaction, TransactionDataBuilder } from '@mysten/sui/transactions';
import { fromBase64, normalizeSuiAddress, toBase64 } from '@mysten/sui/utils';
import { ChainError } from '../errors.ts';

/** An owned object reference. */
export interface ObjectRef {
  objectId: string;
  version: string;
  digest: string;
}

/** A coin: its reference and balance. */
export interface CoinRef extends ObjectRef {
  balance: bigint;
}

/** At most this many coins enter one transaction, as gas payment or as token inputs. */
export const MAX_COINS_PER_TRANSACTION = 200;

/**
 * The fewest of `coins` (largest first, at most `max`) whose balances reach `target`; `enough` is
 * false when even all `max` largest do not. Never returns a coin twice.
 */
export function selectCoins(
  coins: readonly CoinRef[],
  target: bigint,
  max = MAX_COINS_PER_TRANSACTION,
): { coins: CoinRef[]; total: bigint; enough: boolean } {
  const sorted = [...coins].sort((a, b) => (a.balance === b.balance ? 0 : a.balance > b.balance ? -1 : 1));
  const picked: CoinRef[] = [];
  let total = 0n;
  for (const coin of sorted) {
    if (total >= target && picked.length > 0) break;
    if (picked.length >= max) break;
    picked.push(coin);
    total += coin.balance;
  }
  return { coins: picked, total, enough: total >= target };
}

/** What a payout transaction needs. */
export interface PayoutTransactionInput {
  sender: string;
  to: string;
  amount: bigint;
  /** Coins of the token being paid, or null for a native SUI payout (split from gas). */
  tokenCoins: readonly CoinRef[] | null;
  gasCoins: readonly ObjectRef[];
  gasPrice: bigint;
  gasBudget: bigint;
}

/** Builds the BCS `TransactionData` of a payout; needs no network. */
export async function buildPayoutTransaction(input: PayoutTransactionInput): Promise<Uint8Array> {
  const tx = new Transaction();
  tx.setSender(input.sender);
  tx.setGasPrice(input.gasPrice);
  tx.setGasBudget(input.gasBudget);
  tx.setGasPayment(input.gasCoins.map(({ objectId, version, digest }) => ({ objectId, version, digest })));
  const recipient = tx.pure.address(input.to);
  if (input.tokenCoins === null) {
    const [coin] = tx.splitCoins(tx.gas, [tx.pure.u64(input.amount)]);
    tx.transferObjects([coin!], recipient);
  } else {
    const [first, ...rest] = input.tokenCoins.map(({ objectId, version, digest }) =>
      tx.object(Inputs.ObjectRef({ objectId, version, digest })),
    );
    if (!first) throw new ChainError('bad_request', 'a token payout needs at least one coin');
    if (rest.length > 0) tx.mergeCoins(first, rest);
    const total = input.tokenCoins.reduce((s, c) => s + c.balance, 0n);
    if (total === input.amount) {
      tx.transferObjects([first], recipient);
    } else {
      const [part] = tx.splitCoins(first, [tx.pure.u64(input.amount)]);
      tx.transferObjects([part!], recipient);
    }
  }
  return tx.build();
}

/** The digest of transaction bytes (base58), known before execution. */
export function transactionDigest(bytes: Uint8Array): string {
  return TransactionDataBuilder.getDigestFromBytes(bytes);
}

/** The owned objects a transaction consumes at fixed versions: its gas payment and owned inputs. */
export function ownedInputs(bytes: Uint8Array): ObjectRef[] {
  const data = bcs.TransactionData.parse(bytes).V1;
  if (!data) return [];
  const refs: ObjectRef[] = data.gasData.payment.map((r) => ({
    objectId: normalizeSuiAddress(r.objectId),
    version: String(r.version),
    digest: r.digest,
  }));
  for (const input of data.kind.ProgrammableTransaction?.inputs ?? []) {
    if (input.$kind === 'Object' && input.Object.$kind === 'ImmOrOwnedObject') {
      const r = input.Object.ImmOrOwnedObject;
      refs.push({ objectId: normalizeSuiAddress(r.objectId), version: String(r.version), digest: r.digest });
    }
  }
  return refs;
}

/**
 * A signed transaction as stored: the bytes and the sender's serialized signature, both base64,
 * and for a sponsored transaction (a sweep: the hot wallet owns the gas) the gas owner's too.
 */
export interface SignedTransaction {
  bytes: Uint8Array;
  signature: string;
  sponsorSignature?: string;
}

/** The `raw` text a payout attempt (or sweep transaction) stores: JSON of base64 bytes and signatures. */
export function encodeRaw(signed: SignedTransaction): string {
  return JSON.stringify({
    tx: toBase64(signed.bytes),
    signature: signed.signature,
    ...(signed.sponsorSignature ? { sponsorSignature: signed.sponsorSignature } : {}),
  });
}

/** Reads a stored `raw`; throws on text that encodeRaw did not produce. */
export function decodeRaw(raw: string): SignedTransaction {
  const parsed = JSON.parse(raw) as { tx?: unknown; signature?: unknown; sponsorSignature?: unknown };
  if (typeof parsed.tx !== 'string' || typeof parsed.signature !== 'string')
    throw new ChainError('bad_request', 'not a signed SUI transaction');
  if (parsed.sponsorSignature !== undefined && typeof parsed.sponsorSignature !== 'string')
    throw new ChainError('bad_request', 'not a signed SUI transaction');
  return {
    bytes: fromBase64(parsed.tx),
    signature: parsed.signature,
    ...(parsed.sponsorSignature ? { sponsorSignature: parsed.sponsorSignature } : {}),
  };
}
