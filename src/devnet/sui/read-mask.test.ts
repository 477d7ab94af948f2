import { SuiGrpcClient } from '@mysten/sui/grpc';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrpcError } from './grpc-status.ts';
import { type FakeSuiNode, startFakeSuiNode } from './index.ts';
import { TYPES } from './proto.ts';
import { applyReadMask, parseReadMask } from './read-mask.ts';

let node: FakeSuiNode;
let client: SuiGrpcClient;

beforeAll(async () => {
  node = await startFakeSuiNode({ manualCheckpoints: true });
  client = new SuiGrpcClient({ network: 'localnet', baseUrl: node.url });
});

afterAll(() => node.close());

describe('read masks', () => {
  it('keeps only masked fields, recursing into repeated messages', () => {
    const mask = parseReadMask(
      TYPES.checkpoint,
      { paths: ['sequence_number', 'transactions.digest'] },
      'digest',
    );
    const out = applyReadMask(
      TYPES.checkpoint,
      {
        sequenceNumber: 4n,
        digest: 'd',
        transactions: [
          { digest: 't', signatures: [], balanceChanges: [{ address: '0x1', coinType: 'c', amount: '1' }] },
        ],
      },
      mask,
    );
    expect(out.sequenceNumber).toBe(4n);
    expect(out.digest).toBeUndefined();
    expect(out.transactions).toEqual([{ digest: 't', signatures: [], balanceChanges: [] }]);
  });

  it('uses the default mask when none is given and refuses unknown paths', () => {
    const mask = parseReadMask(TYPES.object, undefined, 'object_id,version,digest');
    expect([...mask.keys()]).toEqual(['object_id', 'version', 'digest']);
    expect(() => parseReadMask(TYPES.object, { paths: ['owner.nope'] }, 'digest')).toThrow(GrpcError);
    expect(() => parseReadMask(TYPES.object, { paths: ['version.x'] }, 'digest')).toThrow(
      /invalid read_mask path/,
    );
  });

  it('serves only the default fields when the client sends no mask, like the real node', async () => {
    const owner = new Ed25519Keypair().toSuiAddress();
    const { digest, coinObjectId } = await node.mint(node.usdcType, owner, 1_000_000n);
    const tx = (await client.ledgerService.getTransaction({ digest })).response.transaction;
    expect(tx?.digest).toBe(digest);
    expect(tx?.effects).toBeUndefined();
    expect(tx?.balanceChanges).toEqual([]);
    const obj = (await client.ledgerService.getObject({ objectId: coinObjectId })).response.object;
    expect(obj?.objectId).toBe(coinObjectId);
    expect(obj?.version).toBeGreaterThan(0n);
    expect(obj?.owner).toBeUndefined();
    expect(obj?.balance).toBeUndefined();
    const cp = (await client.ledgerService.getCheckpoint({ checkpointId: { oneofKind: undefined } })).response
      .checkpoint;
    expect(cp?.sequenceNumber).toBe(node.height());
    expect(cp?.transactions).toEqual([]);
  });

  it('answers INVALID_ARGUMENT to a mask path that names no field', async () => {
    await expect(
      client.ledgerService.getEpoch({ readMask: { paths: ['reference_gas_prize'] } }).response,
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
