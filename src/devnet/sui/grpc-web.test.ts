import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrpcCode } from './grpc-status.ts';
import {
  dataFrame,
  encodeFrames,
  encodeGrpcMessage,
  formatOf,
  parseFrames,
  readRequestMessage,
  trailerFrame,
} from './grpc-web.ts';
import { type FakeSuiNode, startFakeSuiNode } from './index.ts';
import { method } from './proto.ts';

let node: FakeSuiNode;

beforeAll(async () => {
  node = await startFakeSuiNode({ manualCheckpoints: true });
});

afterAll(() => node.close());

const GET_SERVICE_INFO = '/sui.rpc.v2.LedgerService/GetServiceInfo';
const GET_TRANSACTION = '/sui.rpc.v2.LedgerService/GetTransaction';

function post(path: string, contentType: string, body: Uint8Array | string) {
  const payload = typeof body === 'string' ? body : Uint8Array.from(body);
  return fetch(`${node.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: payload,
  });
}

describe('gRPC-Web framing', () => {
  it('round-trips data and trailer frames in both formats', () => {
    const message = new Uint8Array([1, 2, 3, 250]);
    for (const format of ['text', 'binary'] as const) {
      const wire = encodeFrames([dataFrame(message), trailerFrame(GrpcCode.OK)], format);
      expect([...readRequestMessage(wire, format)]).toEqual([...message]);
      const raw = format === 'text' ? Buffer.from(wire.toString('latin1'), 'base64') : wire;
      const frames = parseFrames(raw);
      expect(frames.map((f) => f.flag)).toEqual([0x00, 0x80]);
      expect(Buffer.from(frames[1]!.payload).toString('latin1')).toBe('grpc-status:0\r\ngrpc-message:\r\n');
    }
  });

  it('recognises both content types and rejects others', () => {
    expect(formatOf('application/grpc-web-text')).toBe('text');
    expect(formatOf('application/grpc-web+proto')).toBe('binary');
    expect(formatOf('application/grpc-web')).toBe('binary');
    expect(formatOf('application/json')).toBeUndefined();
  });

  it('percent-encodes grpc-message like tonic does', () => {
    expect(encodeGrpcMessage('Object 0x1 not found')).toBe('Object 0x1 not found');
    expect(encodeGrpcMessage('a%b\nc é')).toBe('a%25b%0Ac %C3%A9');
  });

  it('refuses a truncated frame', () => {
    expect(() => parseFrames(new Uint8Array([0, 0, 0, 0, 9, 1]))).toThrow(/truncated/);
  });
});

describe('gRPC-Web over HTTP', () => {
  it('serves application/grpc-web+proto with binary frames', async () => {
    const m = method(GET_SERVICE_INFO);
    const res = await post(
      GET_SERVICE_INFO,
      'application/grpc-web+proto',
      dataFrame(m.I.toBinary(m.I.create())),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/grpc-web+proto');
    const frames = parseFrames(new Uint8Array(await res.arrayBuffer()));
    expect(frames).toHaveLength(2);
    const info = m.O.fromBinary(frames[0]!.payload) as { chainId?: string; checkpointHeight?: bigint };
    expect(info.chainId).toBe(node.chainId);
    expect(info.checkpointHeight).toBe(node.height());
  });

  it('serves application/grpc-web-text with base64 frames', async () => {
    const m = method(GET_SERVICE_INFO);
    const body = encodeFrames([dataFrame(m.I.toBinary(m.I.create()))], 'text').toString('latin1');
    const res = await post(GET_SERVICE_INFO, 'application/grpc-web-text', body);
    expect(res.headers.get('content-type')).toBe('application/grpc-web-text');
    const frames = parseFrames(Buffer.from(await res.text(), 'base64'));
    expect((m.O.fromBinary(frames[0]!.payload) as { chainId?: string }).chainId).toBe(node.chainId);
  });

  it('answers errors as trailers-only responses with grpc-status and grpc-message headers', async () => {
    const m = method(GET_TRANSACTION);
    const request = m.I.toBinary(m.I.create({ digest: '11111111111111111111111111111111' }));
    const res = await post(GET_TRANSACTION, 'application/grpc-web+proto', dataFrame(request));
    expect(res.status).toBe(200);
    expect(res.headers.get('grpc-status')).toBe(String(GrpcCode.NOT_FOUND));
    expect(res.headers.get('grpc-message')).toBe('Transaction 11111111111111111111111111111111 not found');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers UNIMPLEMENTED for a method it does not serve, known to the SDK or not', async () => {
    for (const path of ['/sui.rpc.v2.NameService/LookupName', '/sui.rpc.v2.LedgerService/Nope', '/x.Y/Z']) {
      const res = await post(path, 'application/grpc-web+proto', dataFrame(new Uint8Array(0)));
      expect(res.headers.get('grpc-status')).toBe(String(GrpcCode.UNIMPLEMENTED));
    }
  });

  it('answers 415 to a non-gRPC-Web request on a gRPC path and 404 elsewhere', async () => {
    expect((await post(GET_SERVICE_INFO, 'application/json', '{}')).status).toBe(415);
    expect((await fetch(`${node.url}/nothing`)).status).toBe(404);
  });
});
