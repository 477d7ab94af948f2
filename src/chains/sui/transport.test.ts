import { createServer, type Server } from 'node:http';
import { SuiGrpcClient } from '@mysten/sui/grpc';
import { afterAll, describe, expect, it } from 'vitest';
import { NodeGrpcWebTransport, type RpcTransport, readAnswer } from './transport.ts';

const frame = (flag: number, payload: Buffer) => {
  const head = Buffer.alloc(5);
  head[0] = flag;
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, payload]);
};
const trailer = (text: string) => frame(0x80, Buffer.from(text, 'latin1'));

describe('readAnswer (gRPC-Web binary answers)', () => {
  it('returns the data frame of an OK answer', () => {
    const body = Buffer.concat([
      frame(0, Buffer.from([1, 2, 3])),
      trailer('grpc-status:0\r\ngrpc-message:\r\n'),
    ]);
    const answer = readAnswer(200, {}, body);
    expect('message' in answer && Buffer.from(answer.message)).toEqual(Buffer.from([1, 2, 3]));
  });

  it('reads a trailers-only error from the HTTP headers, with its percent-encoded message', () => {
    expect(
      readAnswer(
        200,
        { 'grpc-status': '5', 'grpc-message': 'Transaction%20abc%20not%20found' },
        Buffer.alloc(0),
      ),
    ).toEqual({ code: 'NOT_FOUND', error: 'Transaction abc not found' });
  });

  it('reads an error from the trailer frame after the headers said nothing', () => {
    expect(readAnswer(200, {}, trailer('grpc-status:14\r\ngrpc-message:busy\r\n'))).toEqual({
      code: 'UNAVAILABLE',
      error: 'busy',
    });
  });

  it('maps HTTP errors without a gRPC status the way gRPC does: 429/502/503/504 are UNAVAILABLE', () => {
    for (const status of [429, 502, 503, 504])
      expect(readAnswer(status, {}, Buffer.alloc(0))).toMatchObject({ code: 'UNAVAILABLE' });
    expect(readAnswer(404, {}, Buffer.alloc(0))).toMatchObject({ code: 'UNIMPLEMENTED' });
    expect(readAnswer(500, {}, Buffer.from('oops'))).toMatchObject({ code: 'UNKNOWN' });
  });

  it('reads an HTTP error page of a proxy as that HTTP error, with its Retry-After, not as frames', () => {
    const page = Buffer.from('<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>');
    expect(readAnswer(503, { 'content-type': 'text/html' }, page)).toEqual({
      code: 'UNAVAILABLE',
      error: 'HTTP 503',
    });
    expect(readAnswer(429, { 'retry-after': '2' }, Buffer.from('slow down, please'))).toEqual({
      code: 'UNAVAILABLE',
      error: 'HTTP 429',
      retryAfterMs: 2000,
    });
  });

  it('refuses truncated frames and answers without a message', () => {
    expect(readAnswer(200, {}, frame(0, Buffer.from([1, 2, 3])).subarray(0, 6))).toMatchObject({
      code: 'DATA_LOSS',
    });
    expect(readAnswer(200, {}, trailer('grpc-status:0\r\n'))).toMatchObject({ code: 'DATA_LOSS' });
  });
});

describe('NodeGrpcWebTransport under SuiGrpcClient', () => {
  const servers: Server[] = [];
  afterAll(() => {
    for (const s of servers) {
      s.closeAllConnections();
      s.close();
    }
  });

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const address = server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  it('posts one binary frame to /<service>/<method> and decodes the answer', async () => {
    const seen: { url?: string; type?: string; body?: Buffer } = {};
    const offline = new SuiGrpcClient({ network: 'localnet', baseUrl: 'http://127.0.0.1:9' });
    const info = offline.ledgerService.methods.find((m) => m.name === 'GetServiceInfo')!;
    const url = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        Object.assign(seen, { url: req.url, type: req.headers['content-type'], body: Buffer.concat(chunks) });
        const message = Buffer.from(info.O.toBinary({ chainId: 'abc', checkpointHeight: 42n } as never));
        res.writeHead(200, { 'content-type': 'application/grpc-web+proto' });
        res.end(Buffer.concat([frame(0, message), trailer('grpc-status:0\r\n')]));
      });
    });
    const transport = new NodeGrpcWebTransport(`${url}/`) as unknown as RpcTransport;
    const client = new SuiGrpcClient({ network: 'localnet', transport });
    const answer = await client.ledgerService.getServiceInfo({}).response;
    expect(answer).toMatchObject({ chainId: 'abc', checkpointHeight: 42n });
    expect(seen).toMatchObject({
      url: '/sui.rpc.v2.LedgerService/GetServiceInfo',
      type: 'application/grpc-web+proto',
    });
    expect(seen.body).toEqual(frame(0, Buffer.alloc(0)));
    const finished = await client.ledgerService.getServiceInfo({});
    expect(finished.response).toMatchObject({ chainId: 'abc' });
    // a provider URL with a path and a query (API keys) keeps both around the method path
    const keyed = new SuiGrpcClient({
      network: 'localnet',
      transport: new NodeGrpcWebTransport(`${url}/v1/key/?token=t`) as unknown as RpcTransport,
    });
    await keyed.ledgerService.getServiceInfo({}).response;
    expect(seen.url).toBe('/v1/key/sui.rpc.v2.LedgerService/GetServiceInfo?token=t');
  });

  it('fails with a code: CANCELLED when our signal aborts, INTERNAL when the connection is refused', async () => {
    const hanging = await serve(() => undefined);
    const client = new SuiGrpcClient({
      network: 'localnet',
      transport: new NodeGrpcWebTransport(hanging) as unknown as RpcTransport,
    });
    await expect(
      client.ledgerService.getServiceInfo({}, { abort: AbortSignal.timeout(50) }).response,
    ).rejects.toMatchObject({ code: 'CANCELLED' });
    const refused = new SuiGrpcClient({
      network: 'localnet',
      transport: new NodeGrpcWebTransport('http://127.0.0.1:1') as unknown as RpcTransport,
    });
    await expect(refused.ledgerService.getServiceInfo({}).response).rejects.toMatchObject({
      code: 'INTERNAL',
    });
  });
});
