/**
 * Signature checks a validator makes before it signs a transaction: one valid signature per required
 * signer (the sender, and the gas owner when it sponsors), over the transaction's intent message.
 * Verification is the SDK's (`verifyTransactionSignature`), so what the SDK signs, the fake accepts.
 */
import { parseSerializedSignature } from '@mysten/sui/cryptography';
import { toBase64 } from '@mysten/sui/utils';
import { verifyTransactionSignature } from '@mysten/sui/verify';
import { GrpcCode, GrpcError } from './grpc-status.ts';

function invalid(detail: string): GrpcError {
  return new GrpcError(GrpcCode.INVALID_ARGUMENT, `Invalid user signature: ${detail}`);
}

/**
 * Verifies serialized signatures (`flag || signature || public key`) against the transaction bytes
 * and the required signers. Returns them as base64. Throws INVALID_ARGUMENT ("Invalid user
 * signature: …") when a signature is malformed, does not verify, comes from a non-signer, or a
 * required signer has none. zkLogin is refused (verifying it needs the network).
 */
export async function verifySignatures(
  txBytes: Uint8Array,
  signatures: readonly Uint8Array[],
  requiredSigners: readonly string[],
): Promise<string[]> {
  const required = new Set(requiredSigners);
  if (signatures.length !== required.size) {
    throw invalid(`Expect ${required.size} signer signatures but got ${signatures.length}`);
  }
  const covered = new Set<string>();
  const encoded: string[] = [];
  for (const raw of signatures) {
    const signature = toBase64(raw);
    let scheme: string;
    try {
      scheme = parseSerializedSignature(signature).signatureScheme;
    } catch {
      throw invalid('Signature is not valid: malformed signature bytes');
    }
    if (scheme === 'ZkLogin') throw invalid('zkLogin signatures are not supported by the fake Sui node');
    let signer: string;
    try {
      signer = (await verifyTransactionSignature(txBytes, signature)).toSuiAddress();
    } catch {
      throw invalid('Signature is not valid: Cannot verify signature');
    }
    if (!required.has(signer)) {
      throw invalid(`Value was not signed by the correct sender: signer ${signer} is not a required signer`);
    }
    covered.add(signer);
    encoded.push(signature);
  }
  for (const signer of required) {
    if (!covered.has(signer)) throw invalid(`Value was not signed by the correct sender: missing ${signer}`);
  }
  return encoded;
}
