import { afterEach, describe, expect, it } from 'vitest';
import type { FakeTronNode } from './server.ts';
import {
  ADDRESSES,
  fromHexUtf8,
  GENESIS,
  hexOf,
  KEYS,
  post,
  sendToken,
  startTestNode,
  tronwebFor,
} from './test-kit.ts';

/*
 * Stake 2.0 energy lending (delegateresource / undelegateresource), driven by tronweb unmodified:
 * alice froze 2 000 TRX for energy (about 149 000 energy a day at the network's weight) and lends
 * part of it to bob, whose TRC-20 transfer then burns no TRX for energy.
 */

const FROZEN = 2_000_000_000n;

function startWithStake(): Promise<FakeTronNode> {
  return startTestNode({
    ...GENESIS,
    accounts: [
      {
        address: ADDRESSES.alice,
        trx: 1_000_000_000n,
        tokens: { USDT: 1_000_000_000n },
        frozenEnergySun: FROZEN,
      },
      { address: ADDRESSES.bob, trx: 10_000_000n, tokens: { USDT: 50_000_000n } },
    ],
  });
}

async function delegate(node: FakeTronNode, sun: number, reclaim = false) {
  const tronWeb = tronwebFor(node, KEYS.alice);
  const tx = reclaim
    ? await tronWeb.transactionBuilder.undelegateResource(sun, ADDRESSES.bob, 'ENERGY', ADDRESSES.alice)
    : await tronWeb.transactionBuilder.delegateResource(sun, ADDRESSES.bob, 'ENERGY', ADDRESSES.alice);
  const signed = await tronWeb.trx.sign(tx, KEYS.alice);
  return (await tronWeb.trx.sendRawTransaction(signed)) as {
    result?: boolean;
    code?: string;
    message?: string;
  };
}

describe('energy lending (Stake 2.0)', () => {
  let node: FakeTronNode;
  afterEach(async () => {
    await node.close();
  });

  it('lends energy from frozen TRX: the receiver pays its transfer with it, and the lender takes it back', async () => {
    node = await startWithStake();
    const tronWeb = tronwebFor(node);
    expect(
      (await post(node, '/wallet/getcandelegatedmaxsize', { owner_address: hexOf(ADDRESSES.alice), type: 1 }))
        .json,
    ).toEqual({
      max_size: Number(FROZEN),
    });
    expect(await delegate(node, 500_000_000)).toMatchObject({ result: true });
    node.mine();
    const lent = await tronWeb.trx.getAccountResources(ADDRESSES.bob);
    expect(lent.EnergyLimit).toBe(Math.floor((500 * 180_000_000_000) / 2_411_528_185));
    const account = await tronWeb.trx.getUnconfirmedAccount(ADDRESSES.alice);
    expect(account.account_resource).toMatchObject({ delegated_frozenV2_balance_for_energy: 500_000_000 });
    expect(account.frozenV2).toContainEqual({ type: 'ENERGY', amount: Number(FROZEN) });

    const before = node.trxBalance(ADDRESSES.bob);
    const sent = await sendToken(node, 'bob', ADDRESSES.carol, 1_000_000n);
    node.mine();
    const info = (await post(node, '/wallet/gettransactioninfobyid', { value: sent.txid })).json;
    expect(info.receipt).toMatchObject({
      energy_usage: 29_650,
      energy_usage_total: 29_650,
      result: 'SUCCESS',
    });
    expect(info.receipt.energy_fee).toBeUndefined();
    expect(node.trxBalance(ADDRESSES.bob)).toBe(before); // bandwidth from the free allowance, energy lent

    expect(await delegate(node, 500_000_000, true)).toMatchObject({ result: true });
    node.mine();
    expect((await tronWeb.trx.getAccountResources(ADDRESSES.bob)).EnergyLimit).toBeUndefined();
    expect((await tronWeb.trx.getUnconfirmedAccount(ADDRESSES.alice)).account_resource).not.toHaveProperty(
      'delegated_frozenV2_balance_for_energy',
    );
  });

  it('refuses what java-tron refuses: less than 1 TRX, more than is frozen, an unknown receiver, taking back more than lent', async () => {
    node = await startWithStake();
    const refusal = async (answer: Promise<{ code?: string; message?: string }>) => {
      const a = await answer;
      return `${a.code}: ${fromHexUtf8(a.message ?? '')}`;
    };
    expect(await refusal(delegate(node, 999_999))).toBe(
      'CONTRACT_VALIDATE_ERROR: Contract validate error : delegateBalance must be greater than or equal to 1 TRX',
    );
    expect(await refusal(delegate(node, Number(FROZEN) + 1_000_000))).toBe(
      'CONTRACT_VALIDATE_ERROR: Contract validate error : delegateBalance must be less than or equal to available FreezeEnergyV2 balance',
    );
    expect(await refusal(delegate(node, 1_000_000, true))).toBe(
      'CONTRACT_VALIDATE_ERROR: Contract validate error : delegated Resource does not exist',
    );
    expect(await delegate(node, 3_000_000)).toMatchObject({ result: true });
    expect(await refusal(delegate(node, 4_000_000, true))).toBe(
      'CONTRACT_VALIDATE_ERROR: Contract validate error : insufficient delegatedFrozenBalance(Energy), request=4000000, unfreezeBalance=3000000',
    );
    const tronWeb = tronwebFor(node, KEYS.alice);
    const toNobody = await tronWeb.transactionBuilder.delegateResource(
      1_000_000,
      ADDRESSES.carol,
      'ENERGY',
      ADDRESSES.alice,
    );
    const answer = await tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(toNobody, KEYS.alice));
    expect(fromHexUtf8((answer as { message: string }).message)).toBe(
      `Contract validate error : Account[${hexOf(ADDRESSES.carol)}] not exists`,
    );
  });

  it('builds the same delegation bytes on /wallet/delegateresource as tronweb builds locally', async () => {
    node = await startWithStake();
    const { json } = await post(node, '/wallet/delegateresource', {
      owner_address: hexOf(ADDRESSES.alice),
      receiver_address: hexOf(ADDRESSES.bob),
      balance: 2_000_000,
      resource: 'ENERGY',
    });
    expect(json.raw_data.contract[0]).toMatchObject({
      type: 'DelegateResourceContract',
      parameter: {
        value: { resource: 'ENERGY', balance: 2_000_000, receiver_address: hexOf(ADDRESSES.bob) },
      },
    });
    const tronWeb = tronwebFor(node, KEYS.alice);
    const signed = await tronWeb.trx.sign(json, KEYS.alice); // tronweb re-derives txID from raw_data and checks it
    expect(await tronWeb.trx.sendRawTransaction(signed)).toMatchObject({ result: true });
  });
});
