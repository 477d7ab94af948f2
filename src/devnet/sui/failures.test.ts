import { SuiGrpcClient } from '@mysten/sui/grpc';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SUI_TYPE } from './coin-types.ts';
import { FailureInjector } from './failures.ts';
import { type FakeSuiNode, startFakeSuiNode } from './index.ts';
import { fundedAccount, newTransaction } from './testing.ts';

let node: FakeSuiNode;
let client: SuiGrpcClient;

beforeAll(async () => {
  node = await startFakeSuiNode({ manualCheckpoints: true });
  client = new SuiGrpcClient({ network: 'localnet', baseUrl: node.url });
});

afterEach(() => node.heal());
afterAll(() => node.close());

const serviceInfo = () => client.ledgerService.getServiceInfo({}).response;

describe('failure injection', () => {
  it('answers UNAVAILABLE for the next `count` calls, then serves again', async () => {
    node.fail({ mode: 'unavailable', count: 2 });
    await expect(serviceInfo()).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    await expect(client.core.getReferenceGasPrice()).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect((await serviceInfo()).chainId).toBe(node.chainId);
  });

  it('answers RESOURCE_EXHAUSTED when rate limited, until healed', async () => {
    node.fail({ mode: 'rate-limited' });
    for (let i = 0; i < 3; i++)
      await expect(serviceInfo()).rejects.toMatchObject({ code: 'RESOURCE_EXHAUSTED' });
    node.heal();
    expect((await serviceInfo()).chainId).toBe(node.chainId);
  });

  it('delays only the listed methods when slow', async () => {
    node.fail({ mode: 'slow', delayMs: 300, methods: ['GetServiceInfo'] });
    let started = performance.now();
    await serviceInfo();
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    started = performance.now();
    await client.core.getReferenceGasPrice();
    expect(performance.now() - started).toBeLessThan(250);
  });

  it('fails only the listed methods, by name or by full path', async () => {
    node.fail({ mode: 'unavailable', methods: ['sui.rpc.v2.StateService/GetBalance'] });
    const address = new Ed25519Keypair().toSuiAddress();
    await expect(client.core.getBalance({ address, coinType: SUI_TYPE })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
    expect((await serviceInfo()).chainId).toBe(node.chainId);
  });

  it("with phase 'after', executes the transaction but loses the answer; resending the same bytes is safe", async () => {
    const { keypair, address } = await fundedAccount(node, { sui: 1_000_000_000n });
    const recipient = new Ed25519Keypair().toSuiAddress();
    const { tx } = await newTransaction(client, address);
    const [coin] = tx.splitCoins(tx.gas, [tx.pure.u64(5000n)]);
    tx.transferObjects([coin!], tx.pure.address(recipient));
    const bytes = await tx.build();
    const { signature } = await keypair.signTransaction(bytes);

    node.fail({ mode: 'unavailable', count: 1, methods: ['ExecuteTransaction'], phase: 'after' });
    await expect(
      client.core.executeTransaction({ transaction: bytes, signatures: [signature] }),
    ).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
    const digest = await tx.getDigest();
    expect((await client.core.getTransaction({ digest })).transaction.effects?.status.success).toBe(true);
    const again = await client.core.executeTransaction({ transaction: bytes, signatures: [signature] });
    expect(again.transaction.digest).toBe(digest);
    expect(
      BigInt((await client.core.getBalance({ address: recipient, coinType: SUI_TYPE })).balance.balance),
    ).toBe(5000n);
  });

  it('refuses unknown modes and non-positive counts', () => {
    const failures = new FailureInjector();
    expect(() => failures.add({ mode: 'broken' as never })).toThrow(/unknown failure mode/);
    expect(() => failures.add({ mode: 'slow', count: 0 })).toThrow(/count/);
    failures.add({ mode: 'slow', count: 1, delayMs: 5 });
    expect(failures.plan('/sui.rpc.v2.LedgerService/GetEpoch').delayMs).toBe(5);
    expect(failures.plan('/sui.rpc.v2.LedgerService/GetEpoch').delayMs).toBe(0);
  });
});
