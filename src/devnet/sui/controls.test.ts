import { SuiGrpcClient } from '@mysten/sui/grpc';
import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUI_TYPE } from './coin-types.ts';
import { type FakeSuiNode, type FakeSuiState, startFakeSuiNode } from './index.ts';

let node: FakeSuiNode;
let client: SuiGrpcClient;

beforeAll(async () => {
  node = await startFakeSuiNode({ manualCheckpoints: true });
  client = new SuiGrpcClient({ network: 'localnet', baseUrl: node.url });
});

afterAll(() => node.close());

async function control(path: string, body?: unknown, method = 'POST') {
  const res = await fetch(`${node.url}/_fake/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('HTTP test controls under /_fake', () => {
  it('mints USDC, funds SUI and seals a checkpoint over HTTP', async () => {
    const owner = new Ed25519Keypair().toSuiAddress();
    const minted = await control('mint', { coinType: node.usdcType, owner, amount: '25000000' });
    expect(minted.status).toBe(200);
    expect(minted.body.coinObjectId).toMatch(/^0x[0-9a-f]{64}$/);
    const deposit = await control('mint', {
      coinType: node.usdcType,
      owner,
      amount: '1000000',
      asAddressBalance: true,
    });
    expect(deposit.body.coinObjectId).toBeNull();
    const funded = await control('fund-sui', { owner, amount: '3000000000' });
    expect(funded.status).toBe(200);

    const sealed = await control('checkpoint');
    expect(sealed.body.transactions).toEqual([minted.body.digest, deposit.body.digest, funded.body.digest]);
    expect(BigInt(sealed.body.sequenceNumber as string)).toBe(node.height());

    const usdc = await client.core.getBalance({ address: owner, coinType: node.usdcType });
    expect(usdc.balance.balance).toBe('26000000');
    const state = (await control('state', undefined, 'GET')).body as unknown as FakeSuiState;
    expect(state.chainId).toBe(node.chainId);
    expect(state.height).toBe(node.height().toString());
    expect(state.balances[owner]?.[node.usdcType]).toEqual({
      coins: '25000000',
      addressBalance: '1000000',
      total: '26000000',
    });
    expect(state.balances[owner]?.[SUI_TYPE]?.total).toBe('3000000000');
  });

  it('injects and clears failures over HTTP', async () => {
    expect((await control('fail', { mode: 'unavailable', methods: ['GetServiceInfo'] })).status).toBe(200);
    await expect(client.ledgerService.getServiceInfo({}).response).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
    const state = (await control('state', undefined, 'GET')).body as unknown as FakeSuiState;
    expect(state.failures).toEqual([{ mode: 'unavailable', methods: ['GetServiceInfo'] }]);
    expect((await control('heal')).status).toBe(200);
    expect((await client.ledgerService.getServiceInfo({}).response).chainId).toBe(node.chainId);
  });

  it('refuses bad input with 400, unknown controls with 404 and the wrong verb with 405', async () => {
    const owner = new Ed25519Keypair().toSuiAddress();
    expect((await control('mint', { coinType: node.usdcType, owner, amount: 5 })).status).toBe(400);
    expect((await control('mint', { coinType: node.usdcType, owner, amount: '1.5' })).status).toBe(400);
    expect((await control('mint', { coinType: '0x9::nope::NOPE', owner, amount: '1' })).status).toBe(400);
    expect((await control('fund-sui', { owner: 'not-an-address', amount: '1' })).status).toBe(400);
    expect((await control('fail', { mode: 'explode' })).status).toBe(400);
    expect((await control('teleport', {})).status).toBe(404);
    expect((await control('state', {})).status).toBe(405);
    expect((await client.core.getBalance({ address: owner, coinType: node.usdcType })).balance.balance).toBe(
      '0',
    );
  });
});
