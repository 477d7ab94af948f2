import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmAdapter } from '../../src/chains/evm/adapter.ts';
import { activeChain } from '../../src/config/active-chain.ts';
import { loadConfig } from '../../src/config/load.ts';
import { silentLogger } from '../../src/lib/logger.ts';

/** A JSON-RPC node that answers eth_chainId with 1, and 503 to its first `failFirst` requests. */
function node(failFirst: number): Promise<{ server: Server; url: string }> {
  let seen = 0;
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (d) => {
      text += d;
    });
    req.on('end', () => {
      seen++;
      if (seen <= failFirst) {
        res.writeHead(503).end();
        return;
      }
      const { id } = JSON.parse(text) as { id: number };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id, result: '0x1' }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${address.port}` });
    }),
  );
}

let flaky: { server: Server; url: string };
beforeAll(async () => {
  flaky = await node(2);
});
afterAll(() => flaky.server.close());

describe("the EVM adapter's rpcStatistics", () => {
  it('counts requests and transient errors per URL, with the API key in the URL redacted', async () => {
    const key = 'a1b2c3d4e5f6a7b8c9d0e1f2';
    const config = await loadConfig({
      env: { KASSA_RPC_ETH: `${flaky.url}/v2/${key}?apikey=secret` },
    });
    const adapter = createEvmAdapter(activeChain(config, 'ETH'), silentLogger());
    await adapter.connect();
    const stats = adapter.rpcStatistics();
    expect(stats).toEqual([{ url: `${flaky.url}/v2/***?***`, requests: 3, errors: 2 }]);
    expect(JSON.stringify(stats)).not.toContain(key);
    expect(JSON.stringify(stats)).not.toContain('secret');
  });
});
