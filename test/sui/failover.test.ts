import { createServer, type Server } from 'node:http';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSuiAdapter, type SuiAdapter } from '../../src/chains/sui/adapter.ts';
import type { ActiveChain } from '../../src/config/active-chain.ts';
import { type FakeSuiNode, startFakeSuiNode } from '../../src/devnet/sui/index.ts';
import { createKeyRing } from '../../src/keys/key-ring.ts';
import { silentLogger } from '../../src/lib/logger.ts';
import { freePort } from '../helpers/cli.ts';
import { TEST_MNEMONIC } from '../helpers/harness.ts';
import { SUI, USDC } from '../helpers/sui-chain.ts';

let node: FakeSuiNode;
const servers: Server[] = [];
const hot = createKeyRing(TEST_MNEMONIC).hotWallet('SUI');

/** An HTTP server on 127.0.0.1 that answers every request with `handler`; resolves with its URL. */
async function badEndpoint(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

function adapter(rpc: string[], timeoutMs = 2_000): SuiAdapter {
  const settings: ActiveChain = {
    chain: 'SUI',
    enabled: true,
    rpc,
    chainId: undefined,
    tokens: [
      { symbol: 'USDC', contract: node.usdcType, decimals: 6 },
      { symbol: 'SUI', contract: null, decimals: 9 },
    ],
    explorerTx: '',
    confirmations: 'finalized',
    confirmationFloor: 0,
    pollIntervalMs: 100,
    maxLogRange: 2000,
    eip1559: false,
  };
  return createSuiAdapter(settings, silentLogger(), { timeoutMs, baseDelayMs: 5 });
}

/** A deposit in a fresh checkpoint; the scan of that checkpoint must find it. */
async function deposit() {
  const owner = new Ed25519Keypair().toSuiAddress();
  const { digest } = await node.mint(node.usdcType, owner, 3n * USDC);
  const height = Number(node.checkpoint().sequenceNumber);
  return { owner, digest, height };
}

beforeAll(async () => {
  node = await startFakeSuiNode({ manualCheckpoints: true });
  await node.fundSui(hot.address, 5n * SUI);
  await node.mint(node.usdcType, hot.address, 20n * USDC);
  node.checkpoint();
});
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    s.close();
  }
  await node?.close();
});

describe('SUI RPC fail-over (two URLs, the first failing)', () => {
  it('moves to the second URL when the first refuses connections, and keeps using it', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const a = adapter([dead, node.url]);
    await a.connect();
    const { owner, digest, height } = await deposit();
    const found = await a.scan(height, height, new Set([owner]), [
      { symbol: 'USDC', contract: node.usdcType, decimals: 6 },
    ]);
    expect(found.map((t) => t.txid)).toEqual([digest]);
    const [first, second] = a.ctx.rpc.endpoints.statistics();
    expect(first?.errors).toBe(1);
    expect(second?.errors).toBe(0);
    expect(second?.requests).toBeGreaterThan(2);
  });

  it('fails over on UNAVAILABLE (a proxy answering 503) and on a rate limit (429), and pays out through it', async () => {
    for (const status of [503, 429]) {
      const refusing = await badEndpoint((_req, res) => {
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end('busy');
      });
      const a = adapter([refusing, node.url]);
      const heads = await a.heads();
      expect(heads.head).toBe(Number(node.height()));
      const signed = await a.signPayout({
        privateKey: hot.privateKey,
        from: hot.address,
        to: new Ed25519Keypair().toSuiAddress(),
        token: { symbol: 'USDC', contract: node.usdcType, decimals: 6 },
        amountBase: USDC,
        nonce: null,
      });
      expect(await a.broadcast(signed)).toEqual({ ok: true });
      node.checkpoint();
      expect(await a.lookup(signed.txHash)).toMatchObject({ state: 'mined', success: true });
      expect(a.ctx.rpc.endpoints.statistics()[0]?.errors).toBe(1);
    }
  });

  it('fails over when the first URL never answers, after the per-call timeout', async () => {
    const hanging = await badEndpoint(() => {
      // never answers
    });
    const a = adapter([hanging, node.url], 300);
    const started = Date.now();
    const { height } = await deposit();
    expect((await a.block(height))?.number).toBe(height);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(a.ctx.rpc.endpoints.statistics()[0]?.errors).toBe(1);
  });

  it('retries an injected RESOURCE_EXHAUSTED or UNAVAILABLE on a single URL until it passes', async () => {
    const a = adapter([node.url]);
    node.fail({ mode: 'rate-limited', count: 1, methods: ['GetServiceInfo'] });
    node.fail({ mode: 'unavailable', count: 1, methods: ['GetCheckpoint'] });
    const heads = await a.heads();
    expect(await a.block(heads.head)).toMatchObject({ number: heads.head });
    expect(a.ctx.rpc.endpoints.statistics()[0]?.errors).toBe(2);
    expect(node.state().failures).toEqual([]);
  });

  it('does not fail over on an answer about the request (NOT_FOUND): a missing digest is unknown', async () => {
    const a = adapter([node.url, `http://127.0.0.1:${await freePort()}`]);
    expect(await a.lookup('4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi')).toEqual({ state: 'unknown' });
    expect(a.ctx.rpc.endpoints.statistics().map((s) => s.errors)).toEqual([0, 0]);
  });

  it('gives up with the transient error when every URL keeps failing', async () => {
    const a = adapter([`http://127.0.0.1:${await freePort()}`, `http://127.0.0.1:${await freePort()}`]);
    await expect(a.heads()).rejects.toThrow(/INTERNAL|fetch failed|UNAVAILABLE/);
  });
});
