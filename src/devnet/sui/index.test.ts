import { bcs } from '@mysten/sui/bcs';
import { SuiGrpcClient } from '@mysten/sui/grpc';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { coinWithBalance, Transaction } from '@mysten/sui/transactions';
import { toBase58 } from '@mysten/sui/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUI_TYPE } from './coin-types.ts';
import { type FakeSuiNode, startFakeSuiNode } from './index.ts';
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

const balanceOf = async (address: string, coinType: string) =>
  BigInt((await client.core.getBalance({ address, coinType })).balance.balance);

const netGas = (gasUsed: { computationCost?: string; storageCost?: string; storageRebate?: string }) =>
  BigInt(gasUsed.computationCost ?? 0) +
  BigInt(gasUsed.storageCost ?? 0) -
  BigInt(gasUsed.storageRebate ?? 0);

const checkpointTransactions = async (sequenceNumber: bigint) => {
  const { response } = await client.ledgerService.getCheckpoint({
    checkpointId: { oneofKind: 'sequenceNumber', sequenceNumber },
    readMask: {
      paths: [
        'sequence_number',
        'transactions.digest',
        'transactions.effects.status',
        'transactions.balance_changes',
      ],
    },
  });
  return response.checkpoint?.transactions ?? [];
};

async function suiTransfer(sender: Ed25519Keypair, to: string, amount: bigint, budget?: bigint) {
  const { tx, gas } = await newTransaction(client, sender.toSuiAddress(), budget);
  const [coin] = tx.splitCoins(tx.gas, [tx.pure.u64(amount)]);
  tx.transferObjects([coin!], tx.pure.address(to));
  const bytes = await tx.build();
  const { signature } = await sender.signTransaction(bytes);
  return { bytes, signature, gas, digest: await tx.getDigest() };
}

describe('fake Sui node with the unmodified SuiGrpcClient', () => {
  it('reports the chain id and the checkpoint height through GetServiceInfo', async () => {
    const before = (await client.ledgerService.getServiceInfo({})).response;
    expect(before.chainId).toBe(node.chainId);
    expect(before.checkpointHeight).toBe(node.height());
    const sealed = node.checkpoint();
    const after = (await client.ledgerService.getServiceInfo({})).response;
    expect(after.checkpointHeight).toBe(sealed.sequenceNumber);
    expect(after.checkpointHeight).toBe((before.checkpointHeight ?? 0n) + 1n);
  });

  it('reports the reference gas price through GetEpoch and coin decimals through GetCoinInfo', async () => {
    expect((await client.core.getReferenceGasPrice()).referenceGasPrice).toBe('1000');
    const usdc = await client.stateService.getCoinInfo({ coinType: node.usdcType });
    expect(usdc.response.metadata?.decimals).toBe(6);
    const sui = await client.stateService.getCoinInfo({ coinType: '0x2::sui::SUI' });
    expect(sui.response.metadata?.decimals).toBe(9);
    expect(node.usdcType).toMatch(/^0x[0-9a-f]{64}::usdc::USDC$/);
  });

  it('counts coin objects and address balances in the balance, and lists only the coins', async () => {
    const owner = new Ed25519Keypair().toSuiAddress();
    await node.mint(node.usdcType, owner, 25n * USDC);
    await node.mint(node.usdcType, owner, 1n * USDC, { asAddressBalance: true });
    await node.fundSui(owner, 2n * SUI);
    node.checkpoint();

    expect(await balanceOf(owner, node.usdcType)).toBe(26n * USDC);
    expect(await balanceOf(owner, '0x2::sui::SUI')).toBe(2n * SUI);
    const coins = await client.core.getCoins({ address: owner, coinType: node.usdcType });
    expect(coins.objects.map((c) => c.balance)).toEqual([(25n * USDC).toString()]);
    expect(coins.objects[0]?.type).toBe(`0x${'0'.repeat(63)}2::coin::Coin<${node.usdcType}>`);
    const all = await client.core.getAllBalances({ address: owner });
    expect(Object.fromEntries(all.balances.map((b) => [b.coinType, b.balance]))).toEqual({
      [SUI_TYPE]: (2n * SUI).toString(),
      [node.usdcType]: (26n * USDC).toString(),
    });
  });

  it('executes a SUI transfer built, signed and sent with the SDK, and reads it back', async () => {
    const { keypair: sender, address } = await fundedAccount(node, { sui: 5n * SUI });
    const recipient = new Ed25519Keypair().toSuiAddress();
    const { tx } = await newTransaction(client, address);
    const [coin] = tx.splitCoins(tx.gas, [tx.pure.u64(SUI)]);
    tx.transferObjects([coin!], tx.pure.address(recipient));

    const result = await sender.signAndExecuteTransaction({ transaction: tx, client });
    expect(result.effects?.status).toEqual({ success: true, error: null });
    const gas = netGas(result.effects!.gasUsed);
    expect(gas).toBeGreaterThan(0n);
    const read = await client.core.getTransaction({ digest: result.digest });
    expect(read.transaction.balanceChanges).toEqual(
      expect.arrayContaining([
        { address: recipient, coinType: SUI_TYPE, amount: SUI.toString() },
        { address, coinType: SUI_TYPE, amount: (-(SUI + gas)).toString() },
      ]),
    );
    expect(await balanceOf(recipient, SUI_TYPE)).toBe(SUI);
    expect(await balanceOf(address, SUI_TYPE)).toBe(5n * SUI - SUI - gas);

    expect(read.transaction.digest).toBe(result.digest);
    expect(read.transaction.transaction.sender).toBe(address);
    expect(read.transaction.effects?.digest).toBe(result.effects?.digest);
    expect((await client.core.waitForTransaction({ digest: result.digest })).transaction.digest).toBe(
      result.digest,
    );

    const sealed = node.checkpoint();
    expect(sealed.transactions).toEqual([result.digest]);
    const [inCheckpoint] = await checkpointTransactions(sealed.sequenceNumber);
    expect(inCheckpoint?.digest).toBe(result.digest);
    expect(inCheckpoint?.effects?.status?.success).toBe(true);
    expect(inCheckpoint?.balanceChanges).toEqual(
      expect.arrayContaining([{ address: recipient, coinType: SUI_TYPE, amount: SUI.toString() }]),
    );
  });

  it('executes a USDC transfer that splits a coin object', async () => {
    const { keypair: sender, address } = await fundedAccount(node, { sui: SUI, usdc: 25n * USDC });
    const recipient = new Ed25519Keypair().toSuiAddress();
    const [usdc] = await coinRefs(client, address, node.usdcType);
    const { tx } = await newTransaction(client, address);
    const [part] = tx.splitCoins(ownedInput(tx, usdc!), [tx.pure.u64(5n * USDC)]);
    tx.transferObjects([part!], tx.pure.address(recipient));

    const result = await sender.signAndExecuteTransaction({ transaction: tx, client });
    expect(result.effects?.status.success).toBe(true);
    const { transaction } = await client.core.getTransaction({ digest: result.digest });
    const usdcChanges = transaction.balanceChanges.filter((c) => c.coinType === node.usdcType);
    expect(usdcChanges).toEqual(
      expect.arrayContaining([
        { address, coinType: node.usdcType, amount: (-5n * USDC).toString() },
        { address: recipient, coinType: node.usdcType, amount: (5n * USDC).toString() },
      ]),
    );
    expect(usdcChanges).toHaveLength(2);
    const received = await client.core.getCoins({ address: recipient, coinType: node.usdcType });
    expect(received.objects.map((c) => c.balance)).toEqual([(5n * USDC).toString()]);
    expect(received.objects[0]?.version).toBe(result.effects?.lamportVersion);
    const [left] = await coinRefs(client, address, node.usdcType);
    expect(left?.objectId).toBe(usdc?.objectId);
    expect(left?.balance).toBe(20n * USDC);
    expect(BigInt(left!.version)).toBeGreaterThan(BigInt(usdc!.version));
    expect(left?.digest).not.toBe(usdc?.digest);

    const sealed = node.checkpoint();
    const [inCheckpoint] = await checkpointTransactions(sealed.sequenceNumber);
    expect(inCheckpoint?.balanceChanges).toEqual(expect.arrayContaining(usdcChanges));
  });

  it('serves objects live through BatchGetObjects and at earlier versions through GetObject', async () => {
    const { keypair: sender, address } = await fundedAccount(node, { sui: SUI, usdc: 9n * USDC });
    const [before] = await coinRefs(client, address, node.usdcType);
    const { tx } = await newTransaction(client, address);
    const [part] = tx.splitCoins(ownedInput(tx, before!), [tx.pure.u64(USDC)]);
    tx.transferObjects([part!], tx.pure.address(address));
    await sender.signAndExecuteTransaction({ transaction: tx, client });

    const missing = `0x${'ab'.repeat(32)}`;
    const { objects } = await client.core.getObjects({ objectIds: [before!.objectId, missing] });
    const [live, absent] = objects;
    expect(live).not.toBeInstanceOf(Error);
    expect(live && !(live instanceof Error) ? BigInt(live.version) : 0n).toBeGreaterThan(
      BigInt(before!.version),
    );
    expect(absent).toBeInstanceOf(Error);
    const old = await client.ledgerService.getObject({
      objectId: before!.objectId,
      version: BigInt(before!.version),
      readMask: { paths: ['digest', 'balance'] },
    });
    expect(old.response.object?.digest).toBe(before!.digest);
    expect(old.response.object?.balance).toBe(9n * USDC);
    await expect(client.ledgerService.getObject({ objectId: missing }).response).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('keeps a transaction invisible until executed and puts it in the next checkpoint only', async () => {
    const { keypair: sender } = await fundedAccount(node, { sui: SUI });
    const { bytes, signature, digest } = await suiTransfer(
      sender,
      new Ed25519Keypair().toSuiAddress(),
      1000n,
    );
    await expect(client.core.getTransaction({ digest })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const empty = node.checkpoint();
    expect(empty.transactions).toEqual([]);

    await client.core.executeTransaction({ transaction: bytes, signatures: [signature] });
    const executed = await client.ledgerService.getTransaction({
      digest,
      readMask: { paths: ['digest', 'checkpoint'] },
    });
    expect(executed.response.transaction?.checkpoint).toBeUndefined();

    const sealed = node.checkpoint();
    expect(sealed.transactions).toEqual([digest]);
    const later = await client.ledgerService.getTransaction({ digest, readMask: { paths: ['checkpoint'] } });
    expect(later.response.transaction?.checkpoint).toBe(sealed.sequenceNumber);
    expect(node.checkpoint().transactions).toEqual([]);
  });

  it('fails a transaction that runs out of gas, charges the whole budget and moves nothing else', async () => {
    const { keypair: sender, address } = await fundedAccount(node, { sui: SUI });
    const recipient = new Ed25519Keypair().toSuiAddress();
    const budget = 1_500_000n;
    const { bytes, signature } = await suiTransfer(sender, recipient, 1000n, budget);

    const { transaction } = await client.core.executeTransaction({
      transaction: bytes,
      signatures: [signature],
    });
    expect(transaction.effects?.status.success).toBe(false);
    expect(transaction.effects?.status.error).toContain('Insufficient Gas');
    expect(netGas(transaction.effects!.gasUsed)).toBe(budget);
    expect(transaction.balanceChanges).toEqual([
      { address, coinType: SUI_TYPE, amount: (-budget).toString() },
    ]);
    expect(await balanceOf(address, SUI_TYPE)).toBe(SUI - budget);
    expect(await balanceOf(recipient, SUI_TYPE)).toBe(0n);

    const sealed = node.checkpoint();
    const [failed] = await checkpointTransactions(sealed.sequenceNumber);
    expect(failed?.effects?.status?.success).toBe(false);
    expect(failed?.balanceChanges).toEqual([{ address, coinType: SUI_TYPE, amount: (-budget).toString() }]);
  });

  it('rejects a signature from another key, or a tampered one, and executes nothing', async () => {
    const { keypair: sender, address } = await fundedAccount(node, { sui: SUI });
    const { bytes, signature, digest } = await suiTransfer(
      sender,
      new Ed25519Keypair().toSuiAddress(),
      1000n,
    );
    const stranger = (await new Ed25519Keypair().signTransaction(bytes)).signature;
    await expect(
      client.core.executeTransaction({ transaction: bytes, signatures: [stranger] }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('Invalid user signature'),
    });
    const tampered = Buffer.from(signature, 'base64');
    tampered[5] = (tampered[5] ?? 0) ^ 0xff;
    await expect(
      client.core.executeTransaction({ transaction: bytes, signatures: [tampered.toString('base64')] }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('Invalid user signature'),
    });
    await expect(
      client.core.executeTransaction({ transaction: bytes, signatures: [] }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(client.core.getTransaction({ digest })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await balanceOf(address, SUI_TYPE)).toBe(SUI);
  });

  it('applies the same signed bytes once when they are executed twice', async () => {
    const { keypair: sender, address } = await fundedAccount(node, { sui: SUI });
    const recipient = new Ed25519Keypair().toSuiAddress();
    const { bytes, signature, digest } = await suiTransfer(sender, recipient, 1000n);
    const first = await client.core.executeTransaction({ transaction: bytes, signatures: [signature] });
    const second = await client.core.executeTransaction({ transaction: bytes, signatures: [signature] });
    expect(second.transaction.digest).toBe(digest);
    expect(second.transaction.effects?.digest).toBe(first.transaction.effects?.digest);
    expect(second.transaction.balanceChanges).toEqual(first.transaction.balanceChanges);
    expect(await balanceOf(recipient, SUI_TYPE)).toBe(1000n);
    expect(await balanceOf(address, SUI_TYPE)).toBe(SUI - 1000n - netGas(first.transaction.effects!.gasUsed));
    expect(node.checkpoint().transactions).toEqual([digest]);
  });

  it('rejects an input at a version that is no longer current, like the real object-version conflict', async () => {
    const { keypair: sender, address } = await fundedAccount(node, { sui: SUI });
    const first = await suiTransfer(sender, new Ed25519Keypair().toSuiAddress(), 1000n);
    const second = await suiTransfer(sender, new Ed25519Keypair().toSuiAddress(), 2000n);
    expect(second.gas).toEqual(first.gas);
    await client.core.executeTransaction({ transaction: first.bytes, signatures: [first.signature] });
    await expect(
      client.core.executeTransaction({ transaction: second.bytes, signatures: [second.signature] }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(
        new RegExp(
          `Object ID ${first.gas.objectId} Version 0x${BigInt(first.gas.version).toString(16)} .* is not available for consumption, current version: 0x`,
        ),
      ),
    });
    await expect(client.core.getTransaction({ digest: second.digest })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const [gasNow] = await coinRefs(client, address, SUI_TYPE);
    expect(BigInt(gasNow!.version)).toBeGreaterThan(BigInt(first.gas.version));
  });

  it('answers NOT_FOUND for unknown digests and checkpoints, UNIMPLEMENTED for methods it lacks', async () => {
    const unknown = toBase58(new Uint8Array(32).fill(7));
    await expect(client.core.getTransaction({ digest: unknown })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(
      client.ledgerService.getCheckpoint({
        checkpointId: { oneofKind: 'sequenceNumber', sequenceNumber: node.height() + 100n },
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(client.nameService.lookupName({ name: 'kassa.sui' })).rejects.toMatchObject({
      code: 'UNIMPLEMENTED',
    });
    await expect(
      client.movePackageService.getFunction({ packageId: '0x2', moduleName: 'coin', name: 'zero' }),
    ).rejects.toMatchObject({ code: 'UNIMPLEMENTED' });
  });

  it('simulates a transaction with its gas cost and commits nothing', async () => {
    const { keypair: sender, address } = await fundedAccount(node, { sui: SUI });
    const { bytes, signature, digest } = await suiTransfer(
      sender,
      new Ed25519Keypair().toSuiAddress(),
      1000n,
    );
    const { transaction } = await client.core.dryRunTransaction({ transaction: bytes });
    expect(transaction.digest).toBe(digest);
    expect(transaction.effects?.status.success).toBe(true);
    expect(netGas(transaction.effects!.gasUsed)).toBeGreaterThan(0n);
    expect(await balanceOf(address, SUI_TYPE)).toBe(SUI);
    await expect(client.core.getTransaction({ digest })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const executed = await client.core.executeTransaction({ transaction: bytes, signatures: [signature] });
    expect(executed.transaction.effects?.gasUsed).toEqual(transaction.effects?.gasUsed);
  });

  it("executes the merge-then-split shape that the SDK's coinWithBalance builds", async () => {
    const { keypair: sender, address } = await fundedAccount(node, { sui: 3n * SUI, usdc: 10n * USDC });
    await node.mint(node.usdcType, address, 5n * USDC);
    node.checkpoint();
    const recipient = new Ed25519Keypair().toSuiAddress();
    const { tx } = await newTransaction(client, address);
    tx.transferObjects(
      [coinWithBalance({ type: node.usdcType, balance: 12n * USDC }), coinWithBalance({ balance: SUI })],
      recipient,
    );
    // coinWithBalance in 1.45 only resolves through a JSON-RPC client's getCoins; this shim serves
    // that one call from the gRPC client, and the gas settings make everything else offline.
    const coinLister = {
      jsonRpc: true,
      getCoins: async ({
        owner,
        coinType,
        cursor,
      }: {
        owner: string;
        coinType: string;
        cursor?: string | null;
      }) => {
        const page = await client.core.getCoins({ address: owner, coinType, cursor });
        return {
          data: page.objects.map((c) => ({
            coinObjectId: c.id,
            version: c.version,
            digest: c.digest,
            balance: c.balance,
          })),
          hasNextPage: page.hasNextPage,
          nextCursor: page.cursor,
        };
      },
    };
    const bytes = await tx.build({ client: coinLister as never });
    const commands = bcs.TransactionData.parse(bytes).V1.kind.ProgrammableTransaction!.commands.map(
      (c) => c.$kind,
    );
    expect(commands).toEqual(['MergeCoins', 'SplitCoins', 'SplitCoins', 'TransferObjects']);

    const { signature } = await sender.signTransaction(bytes);
    const { transaction } = await client.core.executeTransaction({
      transaction: bytes,
      signatures: [signature],
    });
    expect(transaction.effects?.status.success).toBe(true);
    expect(await balanceOf(recipient, node.usdcType)).toBe(12n * USDC);
    expect(await balanceOf(recipient, SUI_TYPE)).toBe(SUI);
    const left = await coinRefs(client, address, node.usdcType);
    expect(left.map((c) => c.balance)).toEqual([3n * USDC]);
    expect(transaction.effects?.changedObjects.filter((c) => c.idOperation === 'Deleted')).toHaveLength(1);
  });

  it('shows an address-balance deposit only as a balance change, never as a coin object', async () => {
    const owner = new Ed25519Keypair().toSuiAddress();
    const { digest } = await node.mint(node.usdcType, owner, 7n * USDC, { asAddressBalance: true });
    const sealed = node.checkpoint();
    const transactions = await checkpointTransactions(sealed.sequenceNumber);
    const deposit = transactions.find((t) => t.digest === digest);
    expect(deposit?.effects?.status?.success).toBe(true);
    expect(deposit?.balanceChanges).toEqual(
      expect.arrayContaining([{ address: owner, coinType: node.usdcType, amount: (7n * USDC).toString() }]),
    );
    const { transaction } = await client.core.getTransaction({ digest });
    const ownedOutputs = transaction.effects?.changedObjects.filter(
      (c) => c.outputOwner?.$kind === 'AddressOwner' && c.outputOwner.AddressOwner === owner,
    );
    expect(ownedOutputs).toEqual([]);
    expect((await client.core.getCoins({ address: owner, coinType: node.usdcType })).objects).toEqual([]);
    expect(await balanceOf(owner, node.usdcType)).toBe(7n * USDC);
  });

  it('cannot resolve a transaction through SuiGrpcClient in SDK 1.45, so the fake is fed fully specified ones', async () => {
    const sender = new Ed25519Keypair().toSuiAddress();
    const unresolved = new Transaction();
    unresolved.setSender(sender);
    unresolved.transferObjects([unresolved.splitCoins(unresolved.gas, [1n])[0]!], sender);
    await expect(unresolved.build({ client })).rejects.toThrow(/not supported with the GRPC client/);
    const withIntent = new Transaction();
    withIntent.setSender(sender);
    withIntent.transferObjects([coinWithBalance({ type: node.usdcType, balance: 1n })], sender);
    await expect(withIntent.build({ client })).rejects.toThrow(/only works with SuiClient/);
  });

  it('streams every new checkpoint in order through SubscribeCheckpoints', async () => {
    const abort = new AbortController();
    const call = client.subscriptionService.subscribeCheckpoints(
      { readMask: { paths: ['sequence_number', 'digest'] } },
      { abort: abort.signal },
    );
    const received: bigint[] = [];
    const reading = (async () => {
      try {
        for await (const message of call.responses) {
          received.push(message.cursor ?? -1n);
          if (received.length === 2) abort.abort();
        }
      } catch {
        // aborted by the test
      }
    })();
    await call.headers;
    const a = node.checkpoint();
    const b = node.checkpoint();
    await reading;
    expect(received).toEqual([a.sequenceNumber, b.sequenceNumber]);
  });
});
