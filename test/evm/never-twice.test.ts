import { describe, expect, it } from 'vitest';
import { retryOperatorPayout } from '../../src/services/manage-payouts.ts';
import { useEvmPayoutFaults } from '../helpers/evm-payout-faults.ts';

/**
 * Issue 11's double payment, reproduced and closed: a JSON-RPC proxy in front of anvil whose
 * backends lag (they do not know a mined payout yet), fail over between calls, or lose the answer
 * to a successful eth_sendRawTransaction. In every case the receiver's token balance rises by the
 * payout amount exactly once. (A nonce spent by something Kassa cannot identify: unrecorded-nonce.test.ts.)
 */
const t = useEvmPayoutFaults();
const { receiver, payout, order, attempts, received, lagging, stuck, heldMetric, passes } = t;

describe('a payout is never paid twice', () => {
  it('holds a payout whose mined transaction every backend hides, and settles it once they catch up (the 7 USDT of the issue)', async () => {
    const to = receiver(1);
    const id = await payout('7', to);
    await t.w.payouts('ETH'); // signed, broadcast, mined by anvil at once
    expect(order(id).status).toBe('PENDING_CONFIRMATION');
    const hide = lagging();
    await passes(4);
    // without the rule, Kassa signed it again at nonce + 1 on every pass (28 USDT in 4 passes)
    expect(await received(to)).toBe(7_000_000n);
    expect(attempts(id)).toHaveLength(1);
    expect(order(id).status).toBe('PENDING');
    expect(await stuck()).toEqual([id]);
    expect(await heldMetric()).toBe('kassa_payouts_held{chain="ETH",kind="stuck"} 1');
    const held = t.logs.filter((l) => l.level === 50 && l.orderId === id);
    expect(held).toHaveLength(1); // logged once, not on every pass
    expect(held[0]?.msg).toMatch(/^payout held: check the chain/);

    hide.remove();
    // the operator wants to retry, but the chain now shows the transaction: refused
    await expect(retryOperatorPayout(t.w.h.rt, t.w.h.rt.adapters.get('ETH') ?? null, id)).rejects.toThrow(
      /is in block \d+; it will be followed, not sent again/,
    );
    await passes(3);
    expect(order(id).status).toBe('SUCCESS');
    expect(await received(to)).toBe(7_000_000n);
    expect(await stuck()).toEqual([]);
    expect(await heldMetric()).toBe('kassa_payouts_held{chain="ETH",kind="stuck"} 0');
  });

  it('never re-signs when reads fail over between a lagging backend and a current one', async () => {
    const to = receiver(2);
    const id = await payout('3', to);
    await t.w.payouts('ETH');
    lagging('a');
    // the lagging backend also refuses the nonce count, so that read fails over to the current one:
    // "unknown transaction" from one node, "nonce used" from the other (what double-paid before)
    t.proxy.add({ endpoint: 'a', method: 'eth_getTransactionCount', fault: { kind: 'status', status: 503 } });
    await passes(4);
    expect(await received(to)).toBe(3_000_000n);
    expect(attempts(id)).toHaveLength(1);
    expect(await stuck()).toEqual([]); // the current backend shows it landed: nothing to hold
    t.proxy.clear();
    await passes(3);
    expect(order(id).status).toBe('SUCCESS');
    expect(await received(to)).toBe(3_000_000n);
  });

  it('sends the same bytes again when the answer to a successful eth_sendRawTransaction is lost', async () => {
    const to = receiver(3);
    const id = await payout('2.5', to);
    const drop = t.proxy.add({
      method: 'eth_sendRawTransaction',
      times: 1,
      fault: { kind: 'drop-response' },
    });
    await t.w.payouts('ETH');
    expect(drop.fired).toBe(1);
    await passes(3);
    expect(order(id).status).toBe('SUCCESS');
    expect(attempts(id)).toHaveLength(1);
    expect(await received(to)).toBe(2_500_000n);
  });

  it('holds, then settles, a payout whose broadcast answer is lost while every backend lags', async () => {
    const to = receiver(4);
    const id = await payout('4', to);
    t.proxy.add({ method: 'eth_sendRawTransaction', times: 1, fault: { kind: 'drop-response' } });
    const hide = lagging();
    await passes(3);
    expect(await received(to)).toBe(4_000_000n);
    expect(attempts(id)).toHaveLength(1);
    expect(await stuck()).toEqual([id]);
    hide.remove();
    await passes(3);
    expect(order(id).status).toBe('SUCCESS');
    expect(await received(to)).toBe(4_000_000n);
  });
});
