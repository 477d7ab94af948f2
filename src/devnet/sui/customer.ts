import { SuiGrpcClient } from '@mysten/sui/grpc';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { SUI_TYPE } from './coin-types.ts';
import { coinRefs, newTransaction, ownedInput } from './testing.ts';

/** The Sui address of a 32-byte ed25519 secret key (hex). */
export function suiAddressOf(secretKeyHex: string): string {
  return Ed25519Keypair.fromSecretKey(Buffer.from(secretKeyHex.replace(/^0x/, ''), 'hex')).toSuiAddress();
}

/**
 * A customer paying on a Sui node (the fake one in the sandbox) from a funded key: splits `amount`
 * off its largest coin of the type (or off the gas coin for SUI) and transfers it, with a fully
 * specified transaction. Resolves with the digest once executed.
 */
export async function payOnSui(input: {
  url: string;
  secretKey: string;
  coinType: string | null;
  to: string;
  amount: bigint;
}): Promise<string> {
  const client = new SuiGrpcClient({ network: 'localnet', baseUrl: input.url });
  const keypair = Ed25519Keypair.fromSecretKey(Buffer.from(input.secretKey.replace(/^0x/, ''), 'hex'));
  const sender = keypair.toSuiAddress();
  const { tx } = await newTransaction(client, sender);
  const isSui = input.coinType === null || input.coinType === SUI_TYPE || input.coinType === '0x2::sui::SUI';
  if (isSui) {
    const [coin] = tx.splitCoins(tx.gas, [input.amount]);
    tx.transferObjects([coin], input.to);
  } else {
    const [source] = (await coinRefs(client, sender, input.coinType as string)).filter(
      (c) => c.balance >= input.amount,
    );
    if (!source) throw new Error(`${sender} has no single ${input.coinType} coin of ${input.amount}`);
    const [coin] = tx.splitCoins(ownedInput(tx, source), [input.amount]);
    tx.transferObjects([coin], input.to);
  }
  const bytes = await tx.build();
  const { signature } = await keypair.signTransaction(bytes);
  const result = await client.core.executeTransaction({ transaction: bytes, signatures: [signature] });
  return result.transaction.digest;
}
