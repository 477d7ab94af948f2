/**
 * Builders of `sui.rpc.v2` messages from the fake's records: objects, owners, signatures,
 * timestamps and the transaction message. They fill every field the fake knows; read masks trim
 * them afterwards.
 */
import { bcs } from '@mysten/sui/bcs';
import { SIGNATURE_FLAG_TO_SCHEME } from '@mysten/sui/cryptography';
import { fromBase64 } from '@mysten/sui/utils';
import { type FakeObject, moveContents, objectBcs, objectTypeOf } from './objects.ts';
import {
  ENUMS,
  type ObjectMessage,
  type Owner,
  type Timestamp,
  type TransactionMessage,
  type UserSignature,
} from './proto.ts';
import type { TransactionDataV1 } from './ptb.ts';

/** An address owner. */
export function addressOwner(address: string): Owner {
  return { kind: ENUMS.ownerAddress, address };
}

/** The gRPC `Object` for a stored object version, with BCS, contents and (for coins) balance. */
export function objectMessage(obj: FakeObject): ObjectMessage {
  const objectType = objectTypeOf(obj);
  return {
    bcs: { name: 'Object', value: objectBcs(obj) },
    objectId: obj.id,
    version: obj.version,
    digest: obj.digest,
    owner: addressOwner(obj.owner),
    objectType,
    hasPublicTransfer: true,
    contents: { name: objectType, value: moveContents(obj) },
    previousTransaction: obj.previousTransaction,
    storageRebate: obj.storageRebate,
    balance: obj.kind === 'coin' ? obj.balance : undefined,
  };
}

/** A protobuf Timestamp from epoch milliseconds. */
export function timestampOf(ms: bigint): Timestamp {
  return { seconds: ms / 1000n, nanos: Number(ms % 1000n) * 1_000_000 };
}

const SCHEME_NAMES: Record<string, string> = {
  ED25519: 'ED25519',
  Secp256k1: 'SECP256K1',
  Secp256r1: 'SECP256R1',
  MultiSig: 'MULTISIG',
  ZkLogin: 'ZKLOGIN',
  Passkey: 'PASSKEY',
};

const SIMPLE_LENGTHS: Record<string, [signature: number, publicKey: number]> = {
  ED25519: [64, 32],
  Secp256k1: [64, 33],
  Secp256r1: [64, 33],
};

/** The gRPC `UserSignature` for a serialized signature (`flag || signature || public key`, base64). */
export function userSignature(serialized: string): UserSignature {
  const bytes = fromBase64(serialized);
  const scheme = SIGNATURE_FLAG_TO_SCHEME[bytes[0] as keyof typeof SIGNATURE_FLAG_TO_SCHEME] as
    | string
    | undefined;
  const schemeValue =
    scheme && SCHEME_NAMES[scheme] ? ENUMS.signatureScheme(SCHEME_NAMES[scheme]) : undefined;
  const lengths = scheme ? SIMPLE_LENGTHS[scheme] : undefined;
  return {
    bcs: { name: 'UserSignatureBytes', value: bytes },
    scheme: schemeValue,
    signature: lengths
      ? {
          oneofKind: 'simple',
          simple: {
            scheme: schemeValue,
            signature: bytes.slice(1, 1 + lengths[0]),
            publicKey: bytes.slice(1 + lengths[0], 1 + lengths[0] + lengths[1]),
          },
        }
      : { oneofKind: undefined },
  };
}

/**
 * `bcs.SenderSignedData` of a transaction and its signatures. The 1.45 SDK's core client parses
 * `ExecutedTransaction.transaction.bcs` with this schema, so that is what the fake puts there.
 */
export function senderSignedData(data: TransactionDataV1, signatures: readonly string[]): Uint8Array {
  return bcs.SenderSignedData.serialize([
    {
      intentMessage: {
        intent: { scope: { TransactionData: true }, version: { V0: true }, appId: { Sui: true } },
        value: { V1: data },
      },
      txSignatures: [...signatures],
    },
  ]).toBytes();
}

/** The gRPC `Transaction`: BCS, digest, sender, gas payment and expiration. */
export function transactionMessage(
  digest: string,
  data: TransactionDataV1,
  signatures: readonly string[],
): TransactionMessage {
  const expiration =
    data.expiration.$kind === 'Epoch'
      ? { kind: ENUMS.expirationEpoch, epoch: BigInt(data.expiration.Epoch) }
      : { kind: ENUMS.expirationNone };
  return {
    bcs: { name: 'SenderSignedData', value: senderSignedData(data, signatures) },
    digest,
    version: 1,
    sender: data.sender,
    gasPayment: {
      objects: data.gasData.payment.map((ref) => ({
        objectId: ref.objectId,
        version: BigInt(ref.version),
        digest: ref.digest,
      })),
      owner: data.gasData.owner,
      price: BigInt(data.gasData.price),
      budget: BigInt(data.gasData.budget),
    },
    expiration,
  };
}
