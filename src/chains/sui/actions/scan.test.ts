import { Ed25519Keypair } from '@mysten/sui/keypairs/ed25519';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUI, USDC } from '../../../../test/helpers/sui-chain.ts';
import { receiver, sui, suiAdapterOn, usdcOn } from '../../../../test/helpers/sui-node.ts';
import type { ActiveChain } from '../../../config/active-chain.ts';
import { type FakeSuiNode, startFakeSuiNode } from '../../../devnet/sui/index.ts';

let node: FakeSuiNode;
beforeAll(async () => {
  node = await startFakeSuiNode({ manualCheckpoints: true });
});
afterAll(() => node?.close());
const adapter = (over: Partial<ActiveChain> = {}) => suiAdapterOn(node, over);
const usdc = () => usdcOn(node);

describe('SUI scan', () => {
  it('finds coin and address-balance deposits to watched addresses, keyed by owner and coin type', async () => {
    const a = new Ed25519Keypair().toSuiAddress();
    const b = new Ed25519Keypair().toSuiAddress();
    const stranger = new Ed25519Keypair().toSuiAddress();
    const from = Number(node.height()) + 1;
    const coin = await node.mint(node.usdcType, a, 5n * USDC);
    const balance = await node.mint(node.usdcType, b, 7n * USDC, { asAddressBalance: true });
    const native = await node.fundSui(a, 2n * SUI);
    await node.mint(node.usdcType, stranger, 9n * USDC);
    const first = node.checkpoint();
    const fourth = await node.mint(node.usdcType, a, 1n * USDC);
    const second = node.checkpoint();

    const found = await adapter().scan(from, Number(second.sequenceNumber), new Set([a, b]), [usdc(), sui]);
    const view = found.map((t) => [
      t.txid,
      t.eventKey,
      t.to,
      t.contract,
      t.amountBase,
      t.blockNum,
      t.success,
    ]);
    const n1 = Number(first.sequenceNumber);
    const n2 = Number(second.sequenceNumber);
    expect(view).toEqual(
      expect.arrayContaining([
        [coin.digest, `${a}:${node.usdcType}`, a, node.usdcType, 5n * USDC, n1, true],
        [balance.digest, `${b}:${node.usdcType}`, b, node.usdcType, 7n * USDC, n1, true],
        [native.digest, `${a}:${node.suiType}`, a, null, 2n * SUI, n1, true],
        [fourth.digest, `${a}:${node.usdcType}`, a, node.usdcType, USDC, n2, true],
      ]),
    );
    expect(found).toHaveLength(4);
    expect(found.every((t) => t.from === node.faucetAddress)).toBe(true);
    expect(found.find((t) => t.blockNum === n1)).toMatchObject({ blockHash: first.digest });

    // only the tokens asked for, and nothing when no address is watched
    const onlySui = await adapter().scan(from, n2, new Set([a, b]), [sui]);
    expect(onlySui.map((t) => t.txid)).toEqual([native.digest]);
    expect(await adapter().scan(from, n2, new Set(), [usdc(), sui])).toEqual([]);
  });

  it('reports the configured spelling of a coin type as the contract, whatever spelling the node prints', async () => {
    const a = new Ed25519Keypair().toSuiAddress();
    const [pkg, rest] = [node.usdcType.slice(0, 66), node.usdcType.slice(66)];
    const shouty = `0x${pkg.slice(2).toUpperCase()}${rest}`;
    const from = Number(node.height()) + 1;
    await node.mint(node.usdcType, a, USDC);
    await node.fundSui(a, SUI);
    const to = Number(node.checkpoint().sequenceNumber);
    const spelled = [
      { symbol: 'USDC', contract: shouty, decimals: 6 },
      { symbol: 'SUI', contract: '0x2::sui::SUI', decimals: 9 },
    ];
    const found = await adapter().scan(from, to, new Set([a]), spelled);
    expect(found.map((t) => t.contract).sort()).toEqual(['0x2::sui::SUI', shouty]);
    const native = await adapter().scan(from, to, new Set([a]), [sui]);
    expect(native.map((t) => [t.contract, t.amountBase])).toEqual([[null, SUI]]);
  });

  it('throws rather than skip a checkpoint the node does not have', async () => {
    const head = Number(node.height());
    await expect(adapter().scan(head, head + 3, new Set([receiver]), [usdc()])).rejects.toThrow(
      /no checkpoint/,
    );
  });
});
