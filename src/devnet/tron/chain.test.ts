import { afterEach, describe, expect, it } from 'vitest';
import { type FakeTronNode, startFakeTronNode } from './server.ts';
import { ADDRESSES, GENESIS, hexOf, post, sendToken, sendTrx, startTestNode, USDT } from './test-kit.ts';

/* Block production, the solidified head, forks and the fixtures that shape the chain. */

describe('chain', () => {
  let node: FakeTronNode;

  afterEach(async () => {
    await node.close();
  });

  it('starts with head and solidified block above 0, 19 blocks apart, 3 s per block', async () => {
    node = await startTestNode();
    expect(node.state()).toMatchObject({ head: 20, solid: 1, pending: 0 });
    const before = node.state();
    node.mine(5);
    expect(node.state()).toMatchObject({ head: 25, solid: 6, headTimestamp: before.headTimestamp + 15_000 });
  });

  it('honours a custom solidLag and premine', async () => {
    node = await startFakeTronNode({ blockIntervalMs: 0, solidLag: 2, premine: 4 });
    expect([node.head(), node.solid()]).toEqual([4, 2]);
    node.mine();
    expect([node.head(), node.solid()]).toEqual([5, 3]);
  });

  it('serves /walletsolidity only up to the solidified block', async () => {
    node = await startTestNode();
    const sent = await sendToken(node, 'alice', ADDRESSES.carol, 5n);
    node.mine();
    const included = node.head();
    const query = { value: sent.txid };
    expect((await post(node, '/wallet/gettransactioninfobyid', query)).json.blockNumber).toBe(included);
    expect((await post(node, '/walletsolidity/gettransactioninfobyid', query)).json).toEqual({});
    expect((await post(node, '/walletsolidity/gettransactionbyid', query)).json).toEqual({});
    expect((await post(node, '/walletsolidity/getblockbynum', { num: included })).json).toEqual({});
    expect(
      (await post(node, '/walletsolidity/gettransactioninfobyblocknum', { num: included })).json,
    ).toEqual([]);
    node.mine(18);
    expect(node.solid()).toBe(included - 1);
    expect((await post(node, '/walletsolidity/gettransactioninfobyid', query)).json).toEqual({});
    node.mine();
    expect(node.solid()).toBe(included);
    expect((await post(node, '/walletsolidity/gettransactioninfobyid', query)).json.blockNumber).toBe(
      included,
    );
    const { json: infos } = await post(node, '/walletsolidity/gettransactioninfobyblocknum', {
      num: included,
    });
    expect(infos.map((info: { id: string }) => info.id)).toEqual([sent.txid]);
    const { json: solidHead } = await post(node, '/walletsolidity/getnowblock');
    expect(solidHead.block_header.raw_data.number).toBe(included);
  });

  it('shows solidified balances on /walletsolidity/getaccount and head balances on /wallet/getaccount', async () => {
    node = await startTestNode();
    await sendTrx(node, 'alice', ADDRESSES.bob, 4_000_000);
    node.mine();
    const address = { address: hexOf(ADDRESSES.bob) };
    expect((await post(node, '/wallet/getaccount', address)).json.balance).toBe(14_000_000);
    expect((await post(node, '/walletsolidity/getaccount', address)).json.balance).toBe(10_000_000);
  });

  it('forks away a block: its transfer vanishes, balances revert, the height gets a new block id', async () => {
    node = await startTestNode();
    const sent = await sendToken(node, 'alice', ADDRESSES.carol, 5n);
    node.mine();
    const height = node.head();
    const oldId = node.state().headBlockId;
    const { dropped } = node.fork(1);
    expect(dropped).toEqual([sent.txid]);
    expect(node.head()).toBe(height - 1);
    expect((await post(node, '/wallet/gettransactioninfobyid', { value: sent.txid })).json).toEqual({});
    expect(node.trc20Balance(USDT, ADDRESSES.carol)).toBe(0n);
    node.mine();
    expect(node.head()).toBe(height);
    expect(node.state().headBlockId).not.toBe(oldId);
    expect(node.state().headBlockId.slice(0, 16)).toBe(oldId.slice(0, 16));
    expect((await post(node, '/wallet/gettransactioninfobyblocknum', { num: height })).json).toEqual([]);
    expect((await post(node, '/wallet/gettransactioninfobyid', { value: sent.txid })).json).toEqual({});
    expect((await post(node, '/wallet/gettransactionbyid', { value: sent.txid })).json).toEqual({});
    expect((await post(node, '/wallet/getblockbyid', { value: oldId })).json).toEqual({});
  });

  it('accepts a forked-away transaction again when re-broadcast, or keeps it with reinclude', async () => {
    node = await startTestNode();
    const sent = await sendTrx(node, 'alice', ADDRESSES.bob, 1_000_000);
    node.mine();
    node.fork(1);
    const again = await post(node, '/wallet/broadcasttransaction', sent.transaction);
    expect(again.json.result).toBe(true);
    node.mine();
    expect(node.trxBalance(ADDRESSES.bob)).toBe(11_000_000n);

    const second = await sendTrx(node, 'alice', ADDRESSES.bob, 2_000_000);
    node.mine();
    expect(node.fork(1, { reinclude: true }).dropped).toEqual([second.txid]);
    expect(node.state().pending).toBe(1);
    node.mine();
    expect(
      (await post(node, '/wallet/gettransactioninfobyid', { value: second.txid })).json.blockNumber,
    ).toBe(node.head());
  });

  it('refuses to fork into solidified blocks', async () => {
    node = await startTestNode();
    expect(() => node.fork(20)).toThrow(RangeError);
    expect(() => node.fork(19)).not.toThrow();
    expect(node.solid()).toBe(1);
    expect(() => node.fork(1)).toThrow(RangeError);
  });

  it('refuses a transaction whose reference block was forked away (TAPOS_ERROR)', async () => {
    node = await startTestNode();
    node.mine();
    const built = await sendTrx(node, 'alice', ADDRESSES.bob, 1_000_000);
    expect(built.result).toBe(true);
    node.fork(2);
    node.mine(2);
    const answer = await post(node, '/wallet/broadcasttransaction', built.transaction);
    expect(answer.json.code).toBe('TAPOS_ERROR');
  });

  it('applies setTrx, deployTrc20 and mintTrc20 as fixtures visible to the solidified state at once', async () => {
    node = await startTestNode({ accounts: [] });
    node.setTrx(ADDRESSES.carol, 7_000_000n);
    const token = node.deployTrc20({ symbol: 'TST', name: 'Test', decimals: 2, owner: ADDRESSES.alice });
    node.mintTrc20(token, ADDRESSES.carol, 12_345n);
    expect(token).toMatch(/^T/);
    expect(node.trxBalance(ADDRESSES.carol, 'solid')).toBe(7_000_000n);
    expect(node.trc20Balance(token, ADDRESSES.carol, 'solid')).toBe(12_345n);
    const { json } = await post(node, '/wallet/getcontract', { value: hexOf(token) });
    expect(json.origin_address).toBe(hexOf(ADDRESSES.alice));
    expect(() => node.deployTrc20({ symbol: 'X', name: 'X', decimals: 6, address: token })).toThrow(/taken/);
    expect(() => node.mintTrc20(ADDRESSES.bob, ADDRESSES.carol, 1n)).toThrow(/no TRC-20/);
  });

  it('produces blocks on a timer and stops when closed', async () => {
    node = await startFakeTronNode({ blockIntervalMs: 20, genesis: GENESIS });
    const start = node.head();
    await expect.poll(() => node.head(), { timeout: 5_000, interval: 10 }).toBeGreaterThan(start + 2);
    await node.close();
    const stopped = node.head();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(node.head()).toBe(stopped);
    node = await startTestNode();
  });
});
