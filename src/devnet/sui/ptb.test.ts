import { SuiGrpcClient } from '@mysten/sui/grpc';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import type { Transaction } from '@mysten/sui/transactions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUI_TYPE } from './coin-types.ts';
import { COMPUTATION_UNITS, OBJECT_STORAGE_COST, REBATE_BPS } from './gas.ts';
import { type FakeSuiNode, startFakeSuiNode } from './index.ts';
import { ENUMS } from './proto.ts';
import { coinRefs, fundedAccount, newTransaction, ownedInput } from './testing.ts';

const SUI = 1_000_000_000n;
const USDC = 1_000_000n;

let node: FakeSuiNode;
let client: SuiGrpcClient;

beforeAll(async () => {
  node = await startFakeSuiNode({ manualCheckpoints: true });
  client = new SuiGrpcClient({ network: 'localnet', baseUrl: node.url });
});

afterAll(() => node.close());

async function execute(keypair: Ed25519Keypair, tx: Transaction) {
  const bytes = await tx.build();
  const { signature } = await keypair.signTransaction(bytes);
  return client.transactionExecutionService.executeTransaction({
    transaction: { bcs: { value: bytes } },
    signatures: [{ bcs: { value: Buffer.from(signature, 'base64') }, signature: { oneofKind: undefined } }],
    readMask: { paths: ['transaction.effects', 'transaction.balance_changes'] },
  }).response;
}

const balanceOf = async (address: string, coinType: string) =>
  BigInt((await client.core.getBalance({ address, coinType })).balance.balance);

/** What a failed transaction that wrote only its gas coin costs in this model. */
const failedGasCharge =
  1000n * COMPUTATION_UNITS + OBJECT_STORAGE_COST - (OBJECT_STORAGE_COST * REBATE_BPS) / 10_000n;

describe('programmable transaction semantics', () => {
  it('fails a split beyond the coin balance with InsufficientCoinBalance in that command, charging gas only', async () => {
    const { keypair, address } = await fundedAccount(node, { sui: SUI, usdc: 2n * USDC });
    const [usdc] = await coinRefs(client, address, node.usdcType);
    const { tx } = await newTransaction(client, address);
    const [part] = tx.splitCoins(ownedInput(tx, usdc!), [tx.pure.u64(3n * USDC)]);
    tx.transferObjects([part!], tx.pure.address(address));
    const { transaction } = await execute(keypair, tx);
    const status = transaction?.effects?.status;
    expect(status?.success).toBe(false);
    expect(status?.error?.kind).toBe(ENUMS.errorKind('INSUFFICIENT_COIN_BALANCE'));
    expect(status?.error?.command).toBe(0n);
    expect(await balanceOf(address, node.usdcType)).toBe(2n * USDC);
    const [usdcAfter] = await coinRefs(client, address, node.usdcType);
    expect(BigInt(usdcAfter!.version)).toBeGreaterThan(BigInt(usdc!.version));
    // the gas coin and the USDC coin are both written (versions bump even on failure)
    expect(await balanceOf(address, SUI_TYPE)).toBe(
      SUI -
        (1000n * COMPUTATION_UNITS +
          2n * OBJECT_STORAGE_COST -
          (2n * OBJECT_STORAGE_COST * REBATE_BPS) / 10_000n),
    );
  });

  it('fails a transaction that leaves a new coin unused (UnusedValueWithoutDrop)', async () => {
    const { keypair, address } = await fundedAccount(node, { sui: SUI });
    const { tx } = await newTransaction(client, address);
    tx.splitCoins(tx.gas, [tx.pure.u64(1000n)]);
    const { transaction } = await execute(keypair, tx);
    expect(transaction?.effects?.status?.error?.kind).toBe(ENUMS.errorKind('UNUSED_VALUE_WITHOUT_DROP'));
    expect(transaction?.balanceChanges).toEqual([
      { address, coinType: SUI_TYPE, amount: (-failedGasCharge).toString() },
    ]);
  });

  it('refuses the gas coin as a MergeCoins source (InvalidGasCoinUsage)', async () => {
    const { keypair, address } = await fundedAccount(node, { sui: SUI });
    await node.fundSui(address, SUI);
    const [, small] = await coinRefs(client, address, SUI_TYPE);
    const { tx } = await newTransaction(client, address);
    tx.mergeCoins(ownedInput(tx, small!), [tx.gas]);
    const { transaction } = await execute(keypair, tx);
    const error = transaction?.effects?.status?.error;
    expect(error?.kind).toBe(ENUMS.errorKind('COMMAND_ARGUMENT_ERROR'));
    expect(error?.errorDetails).toEqual({
      oneofKind: 'commandArgumentError',
      commandArgumentError: { argument: 1, kind: ENUMS.argumentErrorKind('INVALID_GAS_COIN_USAGE') },
    });
  });

  it('smashes several gas coins into the first and deletes the others', async () => {
    const { keypair, address } = await fundedAccount(node, { sui: SUI });
    await node.fundSui(address, 2n * SUI);
    const coins = await coinRefs(client, address, SUI_TYPE);
    expect(coins).toHaveLength(2);
    const { tx } = await newTransaction(client, address);
    tx.setGasPayment(coins.map(({ objectId, version, digest }) => ({ objectId, version, digest })));
    const [c] = tx.splitCoins(tx.gas, [tx.pure.u64(2n * SUI + SUI / 2n)]);
    tx.transferObjects([c!], tx.pure.address(new Ed25519Keypair().toSuiAddress()));
    const { transaction } = await execute(keypair, tx);
    expect(transaction?.effects?.status?.success).toBe(true);
    const after = await coinRefs(client, address, SUI_TYPE);
    expect(after.map((c) => c.objectId)).toEqual([coins[0]!.objectId]);
    const deleted = transaction?.effects?.changedObjects.filter((c) => c.idOperation === ENUMS.idDeleted);
    expect(deleted?.map((c) => c.objectId)).toEqual([coins[1]!.objectId]);
  });

  it('sends funds into a recipient address balance with 0x2::coin::send_funds', async () => {
    const { keypair, address } = await fundedAccount(node, { sui: SUI, usdc: 4n * USDC });
    const recipient = new Ed25519Keypair().toSuiAddress();
    const [usdc] = await coinRefs(client, address, node.usdcType);
    const { tx } = await newTransaction(client, address);
    const [part] = tx.splitCoins(ownedInput(tx, usdc!), [tx.pure.u64(USDC)]);
    tx.moveCall({
      target: '0x2::coin::send_funds',
      typeArguments: [node.usdcType],
      arguments: [part!, tx.pure.address(recipient)],
    });
    const { transaction } = await execute(keypair, tx);
    expect(transaction?.effects?.status?.success).toBe(true);
    expect(transaction?.balanceChanges).toEqual(
      expect.arrayContaining([{ address: recipient, coinType: node.usdcType, amount: USDC.toString() }]),
    );
    expect(await balanceOf(recipient, node.usdcType)).toBe(USDC);
    expect((await client.core.getCoins({ address: recipient, coinType: node.usdcType })).objects).toEqual([]);
  });

  it("refuses inputs owned by someone else, gas under the reference price and a budget above the gas coin's balance", async () => {
    const { keypair, address } = await fundedAccount(node, { sui: SUI });
    const other = await fundedAccount(node, { sui: SUI, usdc: USDC });
    const [theirs] = await coinRefs(client, other.address, node.usdcType);
    const stolen = await newTransaction(client, address);
    stolen.tx.transferObjects([ownedInput(stolen.tx, theirs!)], stolen.tx.pure.address(address));
    await expect(execute(keypair, stolen.tx)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining(`is owned by account address ${other.address}`),
    });

    const cheap = await newTransaction(client, address);
    cheap.tx.setGasPrice(999n);
    await expect(execute(keypair, cheap.tx)).rejects.toMatchObject({
      message: expect.stringContaining('under reference gas price'),
    });

    const greedy = await newTransaction(client, address, 2n * SUI);
    await expect(execute(keypair, greedy.tx)).rejects.toMatchObject({
      message: expect.stringContaining('Balance of gas object'),
    });
    expect(await balanceOf(address, SUI_TYPE)).toBe(SUI);
  });

  it("requires the signature of a sponsor that pays the gas, as well as the sender's", async () => {
    const sponsor = await fundedAccount(node, { sui: SUI });
    const { keypair, address } = await fundedAccount(node, { sui: SUI, usdc: USDC });
    const [usdc] = await coinRefs(client, address, node.usdcType);
    const recipient = new Ed25519Keypair().toSuiAddress();
    const { tx } = await newTransaction(client, sponsor.address);
    tx.setSender(address);
    tx.setGasOwner(sponsor.address);
    tx.transferObjects([ownedInput(tx, usdc!)], tx.pure.address(recipient));
    const bytes = await tx.build();
    const senderSig = (await keypair.signTransaction(bytes)).signature;
    const sponsorSig = (await sponsor.keypair.signTransaction(bytes)).signature;
    await expect(
      client.core.executeTransaction({ transaction: bytes, signatures: [senderSig] }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    const { transaction } = await client.core.executeTransaction({
      transaction: bytes,
      signatures: [senderSig, sponsorSig],
    });
    expect(transaction.effects?.status.success).toBe(true);
    expect(await balanceOf(recipient, node.usdcType)).toBe(USDC);
    expect(await balanceOf(address, SUI_TYPE)).toBe(SUI);
    expect(await balanceOf(sponsor.address, SUI_TYPE)).toBeLessThan(SUI);
  });

  it('refuses what the fake does not model with UNIMPLEMENTED, before anything runs', async () => {
    const { keypair, address } = await fundedAccount(node, { sui: SUI });
    const { tx } = await newTransaction(client, address);
    tx.moveCall({
      target: '0x2::pay::split',
      typeArguments: [SUI_TYPE],
      arguments: [tx.gas, tx.pure.u64(1n)],
    });
    await expect(execute(keypair, tx)).rejects.toMatchObject({ code: 'UNIMPLEMENTED' });
    expect(await balanceOf(address, SUI_TYPE)).toBe(SUI);
  });
});
