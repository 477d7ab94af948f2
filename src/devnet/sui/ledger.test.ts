import { SuiGrpcClient } from '@mysten/sui/grpc';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { describe, expect, it } from 'vitest';
import { startFakeSuiNode } from './index.ts';

async function checkpointChain(client: SuiGrpcClient, height: bigint) {
  const out: { sequenceNumber?: bigint; digest?: string; previousDigest?: string }[] = [];
  for (let seq = 0n; seq <= height; seq++) {
    const { response } = await client.ledgerService.getCheckpoint({
      checkpointId: { oneofKind: 'sequenceNumber', sequenceNumber: seq },
      readMask: { paths: ['sequence_number', 'digest', 'summary.previous_digest'] },
    });
    out.push({
      sequenceNumber: response.checkpoint?.sequenceNumber,
      digest: response.checkpoint?.digest,
      previousDigest: response.checkpoint?.summary?.previousDigest,
    });
  }
  return out;
}

describe('checkpoints', () => {
  it('seals checkpoints on a timer and chains each to the previous one', async () => {
    const node = await startFakeSuiNode({ checkpointIntervalMs: 20 });
    try {
      const client = new SuiGrpcClient({ network: 'localnet', baseUrl: node.url });
      const owner = new Ed25519Keypair().toSuiAddress();
      const { digest } = await node.mint(node.usdcType, owner, 1n);
      const deadline = Date.now() + 2000;
      while (node.height() < 3n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(node.height()).toBeGreaterThanOrEqual(3n);
      const tx = await client.ledgerService.getTransaction({ digest, readMask: { paths: ['checkpoint'] } });
      expect(tx.response.transaction?.checkpoint).toBeGreaterThan(0n);

      const chain = await checkpointChain(client, node.height());
      expect(chain[0]?.previousDigest).toBeUndefined();
      expect(chain[0]?.digest).toBe(node.chainId);
      for (let i = 1; i < chain.length; i++) {
        expect(chain[i]?.sequenceNumber).toBe(BigInt(i));
        expect(chain[i]?.previousDigest).toBe(chain[i - 1]?.digest);
      }
      const byDigest = await client.ledgerService.getCheckpoint({
        checkpointId: { oneofKind: 'digest', digest: chain[1]!.digest! },
        readMask: { paths: ['sequence_number'] },
      });
      expect(byDigest.response.checkpoint?.sequenceNumber).toBe(1n);
    } finally {
      await node.close();
    }
  });

  it('derives the chain id, USDC type and faucet from the seed', async () => {
    const [a, b, c] = await Promise.all([
      startFakeSuiNode({ manualCheckpoints: true, seed: 'one' }),
      startFakeSuiNode({ manualCheckpoints: true, seed: 'one' }),
      startFakeSuiNode({ manualCheckpoints: true, seed: 'two' }),
    ]);
    try {
      expect(a.chainId).toBe(b.chainId);
      expect(a.usdcType).toBe(b.usdcType);
      expect(a.faucetAddress).toBe(b.faucetAddress);
      expect(a.chainId).not.toBe(c.chainId);
      expect(a.usdcType).not.toBe(c.usdcType);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it('closes promptly with a client stream open and the timer running', async () => {
    const node = await startFakeSuiNode({ checkpointIntervalMs: 10 });
    const client = new SuiGrpcClient({ network: 'localnet', baseUrl: node.url });
    const call = client.subscriptionService.subscribeCheckpoints({});
    const first = call.responses[Symbol.asyncIterator]().next();
    await first;
    const started = performance.now();
    await node.close();
    expect(performance.now() - started).toBeLessThan(500);
    const height = node.height();
    await new Promise((r) => setTimeout(r, 50));
    expect(node.height()).toBe(height);
    await expect(fetch(`${node.url}/_fake/state`)).rejects.toThrow();
  });
});
