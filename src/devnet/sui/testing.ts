/**
 * Helpers for tests that drive the fake node with the SDK: a funded account and the coin refs and
 * gas settings a fully specified transaction needs. With @mysten/sui 1.45, `Transaction.build`
 * cannot resolve anything through `SuiGrpcClient` (its core client throws "Transaction resolution
 * is not supported with the GRPC client"), so transactions name their gas payment, price, budget
 * and object refs explicitly, read beforehand through the client.
 */
import type { SuiGrpcClient } from '@mysten/sui/grpc';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { Inputs, Transaction } from '@mysten/sui/transactions';
import { SUI_TYPE } from './coin-types.ts';
import type { FakeSuiNode } from './index.ts';

/** An object reference as the SDK's `Transaction` takes it. */
export interface ObjectRef {
  objectId: string;
  version: string;
  digest: string;
}

/** A fresh keypair with `sui` MIST (one coin) and optionally `usdc` base units (one coin), checkpointed. */
export async function fundedAccount(
  node: FakeSuiNode,
  amounts: { sui: bigint; usdc?: bigint },
): Promise<{ keypair: Ed25519Keypair; address: string }> {
  const keypair = new Ed25519Keypair();
  const address = keypair.toSuiAddress();
  await node.fundSui(address, amounts.sui);
  if (amounts.usdc) await node.mint(node.usdcType, address, amounts.usdc);
  node.checkpoint();
  return { keypair, address };
}

/** The owner's coins of a type as object refs with balances, largest first, read through the client. */
export async function coinRefs(
  client: SuiGrpcClient,
  owner: string,
  coinType: string,
): Promise<(ObjectRef & { balance: bigint })[]> {
  const { objects } = await client.core.getCoins({ address: owner, coinType });
  return objects
    .map((c) => ({ objectId: c.id, version: c.version, digest: c.digest, balance: BigInt(c.balance) }))
    .sort((a, b) => (a.balance === b.balance ? 0 : a.balance > b.balance ? -1 : 1));
}

/** A transaction with sender, reference gas price (via GetEpoch), budget and the sender's largest SUI coin as gas. */
export async function newTransaction(
  client: SuiGrpcClient,
  sender: string,
  budget = 10_000_000n,
): Promise<{ tx: Transaction; gas: ObjectRef & { balance: bigint } }> {
  const [gas] = await coinRefs(client, sender, SUI_TYPE);
  if (!gas) throw new Error(`${sender} has no SUI coin`);
  const { referenceGasPrice } = await client.core.getReferenceGasPrice();
  const tx = new Transaction();
  tx.setSender(sender);
  tx.setGasPrice(BigInt(referenceGasPrice));
  tx.setGasBudget(budget);
  tx.setGasPayment([{ objectId: gas.objectId, version: gas.version, digest: gas.digest }]);
  return { tx, gas };
}

/** A fully specified owned-object input. */
export function ownedInput(tx: Transaction, ref: ObjectRef) {
  return tx.object(Inputs.ObjectRef(ref));
}
