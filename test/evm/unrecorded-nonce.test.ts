import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { listBalances } from '../../src/db/repositories/ledger.ts';
import { webhookEvents } from '../../src/db/schema/webhook-events.ts';
import { listOperatorPayouts } from '../../src/services/manage-payouts.ts';
import { useEvmPayoutFaults } from '../helpers/evm-payout-faults.ts';
import { spendOfSigned } from '../helpers/spends.ts';

/**
 * The rest of issue 11: a payout whose nonce was spent by a transaction Kassa cannot identify is
 * held for the operator instead of being signed at a new nonce, and the EVM slot verdict that tells
 * a nonce Kassa's own transaction used from one anything else used. Through a JSON-RPC fault proxy
 * in front of anvil.
 */
const t = useEvmPayoutFaults();
const { cli, receiver, payout, order, attempts, received, stuck, passes } = t;

describe('a payout whose nonce was spent by a transaction Kassa did not record', () => {
  const c = () => t.w.devnet.get('ETH');

  /** Holds the payout's broadcast at the proxy, spends its nonce with the hot key elsewhere, then lets the broadcast go. */
  async function spendNonceElsewhere(id: string) {
    t.proxy.add({ method: 'eth_sendRawTransaction', times: 1, fault: { kind: 'hold' } });
    const pass = t.w.payouts('ETH');
    await expect.poll(() => t.proxy.held).toBe(1);
    const [signed] = attempts(id);
    const hot = privateKeyToAccount(`0x${t.w.h.rt.keys?.hotWallet('ETH').privateKey.toString('hex')}`);
    const hash = await c().client.sendTransaction({
      account: hot,
      chain: c().client.chain,
      to: hot.address,
      value: 0n,
      nonce: signed?.nonce ?? 0,
    });
    await c().client.waitForTransactionReceipt({ hash });
    t.proxy.release();
    await pass;
  }

  it('is held, and signed in a new slot once the operator retries; the receiver is paid once', async () => {
    const to = receiver(5);
    const id = await payout('6', to);
    await spendNonceElsewhere(id);
    await passes(2);
    expect(order(id).status).toBe('PENDING');
    expect(await stuck()).toEqual([id]);
    const listed = (await listOperatorPayouts(t.w.h.rt, { stuck: true }))[0];
    expect(listed?.holdReason).toMatch(
      /^Its spend slot \(nonce \d+\) was used by a transaction Kassa did not record/,
    );
    expect(await received(to)).toBe(0n);

    // the operator checked the chain, after the payout's expiry: it did not land; send it anyway
    t.w.h.clock.advance(31 * 60_000);
    const retried = await cli(['payouts', 'retry', id, '--json']);
    expect(retried.code).toBe(0);
    expect(JSON.parse(retried.stdout)).toMatchObject({ orderId: id, status: 'PENDING', hold: null });
    await passes(4);
    expect(order(id).status).toBe('SUCCESS');
    expect(await received(to)).toBe(6_000_000n);
    const all = attempts(id);
    expect(all.map((a) => a.status)).toEqual(['dropped', 'final']);
    expect(all[1]?.nonce).toBe((all[0]?.nonce ?? 0) + 1);
  });

  it('ends FAILED with the operator’s reason when failed; its frozen balance is released and the merchant told', async () => {
    const to = receiver(6);
    const before = (await listBalances(t.w.h.db, { merchantId: t.m.merchantId }))[0];
    const id = await payout('9', to);
    const frozen = (await listBalances(t.w.h.db, { merchantId: t.m.merchantId }))[0];
    expect((frozen?.available ?? 0n) - (before?.available ?? 0n)).toBe(-9_000_000n);
    await spendNonceElsewhere(id);
    await passes(1);
    expect(await stuck()).toEqual([id]);
    expect((await cli(['payouts', 'fail', id])).code).toBe(2); // a reason is required
    const failed = await cli(['payouts', 'fail', id, '--reason', 'paid by hand from the cold wallet']);
    expect(failed.code).toBe(0);
    expect(failed.stdout).toBe(`payout ${id} (${t.m.merchantId}) failed: FAILED\n`);
    expect(order(id)).toMatchObject({ status: 'FAILED', reason: 'paid by hand from the cold wallet' });
    const after = (await listBalances(t.w.h.db, { merchantId: t.m.merchantId }))[0];
    expect(after?.available).toBe(before?.available);
    expect(after?.frozen).toBe(before?.frozen);
    await passes(2);
    expect(await received(to)).toBe(0n);
    expect(attempts(id).map((a) => a.status)).toEqual(['dropped']);
    const events = t.w.h.db
      .select()
      .from(webhookEvents)
      .all()
      .filter((e) => JSON.parse(e.data).orderId === id)
      .map((e) => e.notifyType);
    expect(events.at(-1)).toBe('ORDER_FAILED');
  });
});

describe('the EVM slot verdict', () => {
  const c = () => t.w.devnet.get('ETH');
  const adapter = () => {
    const a = t.w.h.rt.adapters.get('ETH');
    if (!a) throw new Error('no ETH adapter');
    return a;
  };
  const hot = () => {
    const k = t.w.h.rt.keys?.hotWallet('ETH');
    if (!k) throw new Error('no keys');
    return k;
  };

  it('is dead only when the nonce was used by a transaction Kassa recorded, unexplained when by anything else', async () => {
    const token = { symbol: 'USDT', contract: c().tokens.USDT.address, decimals: 6 };
    const nonce = await (adapter().nextNonce as (a: string) => Promise<number>)(hot().address);
    const sign = (to: string) =>
      adapter().signPayout({
        privateKey: hot().privateKey,
        from: hot().address,
        to,
        token,
        amountBase: 1n,
        nonce,
      });
    const ours = await sign(receiver(20));
    const rival = await sign(receiver(21)); // the same nonce: only one of the two can ever land
    const judge = (recorded: (typeof ours)[]) =>
      adapter().judgeSlot({
        from: hot().address,
        attempts: [spendOfSigned(ours)],
        recorded: recorded.map(spendOfSigned),
      });
    expect(await judge([rival])).toMatchObject({ state: 'open' }); // nothing used the nonce yet
    expect(await adapter().broadcast(rival)).toEqual({ ok: true });
    await c().client.waitForTransactionReceipt({ hash: rival.txHash as `0x${string}` });
    expect(await judge([rival])).toEqual({
      state: 'dead',
      proof: `nonce ${nonce} was used by Kassa's transaction ${rival.txHash}`,
    });
    expect(await judge([])).toMatchObject({ state: 'unexplained' });
    expect(
      await adapter().judgeSlot({ from: hot().address, attempts: [spendOfSigned(rival)], recorded: [] }),
    ).toEqual({ state: 'landed', txHash: rival.txHash });
    // one endpoint that does not see the rival yet keeps it from being called dead
    const hide = t.proxy.hideTransactions([rival.txHash], { endpoint: 'b' });
    expect(await judge([rival])).toMatchObject({
      state: 'open',
      detail: expect.stringMatching(/^endpoints disagree/),
    });
    hide.remove();
  });
});
