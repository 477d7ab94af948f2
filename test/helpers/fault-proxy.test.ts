import { createServer, type Server } from 'node:http';
import { SuiGrpcClient } from '@mysten/sui/grpc';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NodeGrpcWebTransport, type RpcTransport } from '../../src/chains/sui/transport.ts';
import { startFakeSuiNode } from '../../src/devnet/sui/index.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';

/** A tiny upstream: answers JSON-RPC with `{method, params}` as the result and counts what reached it. */
let upstream: Server;
let upstreamUrl: string;
const reached: string[] = [];
let proxy: FaultProxy;

beforeAll(async () => {
  upstream = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = JSON.parse(text) as { id?: number; method?: string; params?: unknown };
    reached.push(body.method ?? req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        body.method
          ? { jsonrpc: '2.0', id: body.id, result: { method: body.method, params: body.params } }
          : { path: req.url, body },
      ),
    );
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const a = upstream.address();
  upstreamUrl = `http://127.0.0.1:${typeof a === 'object' && a ? a.port : 0}`;
  proxy = await startFaultProxy(upstreamUrl);
});
afterEach(() => {
  proxy.clear();
  reached.length = 0;
});
afterAll(async () => {
  await proxy?.close();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

const rpc = (url: string, method: string, params: unknown[] = []) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
  });

describe('the fault proxy', () => {
  it('passes requests through untouched without rules, on every endpoint', async () => {
    const res = await rpc(proxy.endpoint('b'), 'eth_chainId');
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: { method: 'eth_chainId', params: [] },
    });
    expect(proxy.calls.at(-1)).toMatchObject({ endpoint: 'b', method: 'eth_chainId' });
  });

  it('hides transactions on one endpoint only, as a lagging backend would', async () => {
    proxy.hideTransactions(['0xAB'], { endpoint: 'lagging' });
    const hidden = await (await rpc(proxy.endpoint('lagging'), 'eth_getTransactionReceipt', ['0xab'])).json();
    expect(hidden.result).toBeNull();
    const other = await (await rpc(proxy.endpoint('current'), 'eth_getTransactionReceipt', ['0xab'])).json();
    expect(other.result).toEqual({ method: 'eth_getTransactionReceipt', params: ['0xab'] });
    const unrelated = await (
      await rpc(proxy.endpoint('lagging'), 'eth_getTransactionByHash', ['0xcd'])
    ).json();
    expect(unrelated.result).not.toBeNull();
  });

  it('answers 429 with Retry-After and 5xx without reaching the upstream, for the next N matches only', async () => {
    proxy.add({
      method: 'eth_blockNumber',
      times: 1,
      fault: { kind: 'status', status: 429, retryAfterSeconds: 3 },
    });
    const limited = await rpc(proxy.url, 'eth_blockNumber');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect((await rpc(proxy.url, 'eth_blockNumber')).status).toBe(200);
    proxy.add({ after: 1, fault: { kind: 'status', status: 503 } });
    expect((await rpc(proxy.url, 'a')).status).toBe(200);
    expect((await rpc(proxy.url, 'b')).status).toBe(503);
    expect(reached).toEqual(['eth_blockNumber', 'a']);
  });

  it('sends malformed and truncated bodies', async () => {
    proxy.add({ times: 1, fault: { kind: 'malformed' } });
    await expect((await rpc(proxy.url, 'x')).json()).rejects.toThrow();
    proxy.add({ times: 1, fault: { kind: 'truncate' } });
    await expect(rpc(proxy.url, 'y').then((r) => r.text())).rejects.toThrow();
    expect(reached).toEqual(['y']); // a truncated answer was served by the upstream
  });

  it('resets the connection before forwarding, or after the upstream acted (a lost answer)', async () => {
    proxy.add({ method: 'eth_call', times: 1, fault: { kind: 'reset' } });
    await expect(rpc(proxy.url, 'eth_call')).rejects.toThrow();
    expect(reached).toEqual([]);
    proxy.add({ method: 'eth_sendRawTransaction', times: 1, fault: { kind: 'drop-response' } });
    await expect(rpc(proxy.url, 'eth_sendRawTransaction', ['0x01'])).rejects.toThrow();
    expect(reached).toEqual(['eth_sendRawTransaction']);
  });

  it('replaces a result (another chain id) and answers JSON-RPC errors', async () => {
    proxy.add({ method: 'eth_chainId', fault: { kind: 'result', result: '0x5' } });
    expect((await (await rpc(proxy.url, 'eth_chainId')).json()).result).toBe('0x5');
    proxy.add({ method: 'eth_gasPrice', fault: { kind: 'rpc-error', code: -32000, message: 'boom' } });
    expect((await (await rpc(proxy.url, 'eth_gasPrice')).json()).error).toEqual({
      code: -32000,
      message: 'boom',
    });
  });

  it('holds a request until released, and adds latency', async () => {
    proxy.add({ method: 'held', fault: { kind: 'hold' } });
    const pending = rpc(proxy.url, 'held');
    await expect.poll(() => proxy.held).toBe(1);
    expect(reached).toEqual([]);
    proxy.release();
    expect((await pending).status).toBe(200);
    expect(reached).toEqual(['held']);
    proxy.add({ fault: { kind: 'latency', ms: 30 } });
    const started = performance.now();
    await rpc(proxy.url, 'slow');
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('matches REST paths for nodes that are not JSON-RPC', async () => {
    proxy.add({ method: '/wallet/broadcasttransaction', times: 1, fault: { kind: 'status', status: 502 } });
    const post = (path: string) =>
      fetch(`${proxy.endpoint('tron')}${path}`, { method: 'POST', body: '{"a":1}' });
    expect((await post('/wallet/broadcasttransaction')).status).toBe(502);
    const ok = await post('/wallet/getblock');
    expect(await ok.json()).toEqual({ path: '/wallet/getblock', body: { a: 1 } });
    expect(proxy.calls.at(-1)).toMatchObject({ endpoint: 'tron', path: '/wallet/getblock' });
    proxy.add({
      method: '/walletsolidity/getblock',
      fault: { kind: 'rewrite', body: () => ({ stale: true }) },
    });
    expect(await (await post('/walletsolidity/getblock')).json()).toEqual({ stale: true });
  });

  it('goes down (connections refused) and comes back on the same port', async () => {
    await proxy.down();
    await expect(rpc(proxy.url, 'eth_chainId')).rejects.toThrow();
    await proxy.up();
    expect((await rpc(proxy.url, 'eth_chainId')).status).toBe(200);
    const cold = await startFaultProxy(upstreamUrl, { down: true });
    try {
      const error = await rpc(cold.url, 'eth_chainId').catch((e: Error) => e);
      expect((error as Error & { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
      await cold.up();
      expect((await rpc(cold.url, 'eth_chainId')).status).toBe(200);
    } finally {
      await cold.close();
    }
  });
});

describe('the fault proxy in front of a gRPC-Web node (the fake Sui node)', () => {
  it('passes answers and gRPC errors through, decodes requests, answers statuses and rewrites messages', async () => {
    const node = await startFakeSuiNode({ manualCheckpoints: true });
    const sui = await startFaultProxy(node.url);
    try {
      // Kassa's binary transport and the SDK's default (base64 text) alike
      const clients = [
        new SuiGrpcClient({
          network: 'localnet',
          transport: new NodeGrpcWebTransport(sui.url) as unknown as RpcTransport,
        }),
        new SuiGrpcClient({ network: 'localnet', baseUrl: sui.endpoint('sdk') }),
      ];
      node.checkpoint();
      for (const client of clients) {
        const info = await client.ledgerService.getServiceInfo({}).response;
        expect(info.chainId).toBe(node.chainId);
        // a NOT_FOUND travels in the answer's headers (trailers-only): it must survive the proxy
        await expect(
          client.ledgerService.getTransaction({ digest: '4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi' })
            .response,
        ).rejects.toMatchObject({ code: 'NOT_FOUND' });
      }
      expect(sui.calls.at(-1)).toMatchObject({
        endpoint: 'sdk',
        method: '/sui.rpc.v2.LedgerService/GetTransaction',
        params: { digest: '4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi' },
      });

      const [kassa] = clients as [SuiGrpcClient];
      const missing = sui.add({
        method: 'GetCheckpoint',
        match: (c) =>
          (c.params as { checkpointId?: { sequenceNumber?: bigint } }).checkpointId?.sequenceNumber === 1n,
        fault: { kind: 'grpc-status', code: 5, message: 'Checkpoint 1 not found' },
      });
      const at = (n: bigint) =>
        kassa.ledgerService.getCheckpoint({
          checkpointId: { oneofKind: 'sequenceNumber', sequenceNumber: n },
        }).response;
      await expect(at(1n)).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Checkpoint 1 not found' });
      expect((await at(0n)).checkpoint?.sequenceNumber).toBe(0n);
      expect(missing.fired).toBe(1);

      sui.add({
        method: 'GetServiceInfo',
        fault: { kind: 'rewrite', body: (m) => ({ ...(m as object), chainId: 'another-network' }) },
      });
      for (const client of clients) {
        const info = await client.ledgerService.getServiceInfo({}).response;
        expect(info).toMatchObject({ chainId: 'another-network', checkpointHeight: node.height() });
      }
    } finally {
      await sui.close();
      await node.close();
    }
  });
});
