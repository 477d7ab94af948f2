import type { Address } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { attemptsOfOrder } from '../../src/db/repositories/payouts.ts';
import { tokenBalance } from '../../src/devnet/evm/tokens.ts';
import { listOperatorPayouts } from '../../src/services/manage-payouts.ts';
import { ADMIN_USER as ADMIN, VIEWER_USER as VIEWER } from '../helpers/admin.ts';
import { useDashboardShop } from '../helpers/dashboard-shop.ts';
import { spendHotWalletNonce } from '../helpers/evm-chain.ts';
import { body } from '../helpers/harness.ts';

/**
 * Payouts that wait for the operator, in the dashboard in real Chromium against a real shop on
 * anvil with the real worker: above the approval threshold approved (then signed and paid on anvil
 * by the worker) or rejected, and a payout held because its nonce was spent elsewhere retried from
 * the page. The chain is reached through a fault proxy, which holds a broadcast for that last case.
 */
const s = useDashboardShop();
const { until, orderNow, signedIn, text } = s;

describe('payouts that wait for the operator', () => {
  const BIG_TO = '0x2222222222222222222222222222222222222222' as Address;
  const HELD_TO = '0x3333333333333333333333333333333333333333' as Address;
  const received = (to: Address) => {
    const c = s.w.devnet.get('POLYGON');
    return tokenBalance(c.client, c.tokens.USDC.address, to);
  };
  const awaiting = async () =>
    (await listOperatorPayouts(s.w.h.rt, { awaitingApproval: true })).map((p) => p.orderId).sort();

  beforeAll(async () => {
    await s.w.h.fund(s.m, 'POLYGON', 'USDC', '100');
    for (const [orderId, amount] of [
      ['PAY-BIG', '12'],
      ['PAY-NO', '11'],
    ] as const) {
      const res = await body(
        await s.w.h.post('/v1/order/createPayout', s.m, {
          amount,
          symbol: 'USDC',
          chain: 'POLYGON',
          orderId,
          receiveAddress: BIG_TO,
        }),
      );
      expect(res.code).toBe(200);
      expect(orderNow(orderId)).toMatchObject({ status: 'INIT', reason: 'Waiting for approval.' });
    }
  });

  it('shows a viewer the payouts awaiting approval without a button, and refuses a forged approval (403)', async () => {
    const { context, page } = await signedIn(VIEWER);
    await page.goto(`${s.served.url}/admin/payouts`);
    const big = orderNow('PAY-BIG');
    expect(await page.locator('#approval tbody tr').count()).toBe(2);
    expect(await page.locator('#approval button').count()).toBe(0);
    const [refused] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.evaluate((id) => {
        const form = document.createElement('form');
        form.method = 'post';
        form.action = `/admin/payouts/${id}/approve`;
        const csrf = document.querySelector('input[name=csrf]') as HTMLInputElement;
        const confirm = Object.assign(document.createElement('input'), { name: 'confirm', value: 'yes' });
        form.append(csrf.cloneNode(), confirm);
        document.body.append(form);
        form.submit();
      }, big.id),
    ]);
    expect(refused.status()).toBe(403);
    await page.waitForLoadState('load');
    expect(await text(page, '[role=alert]')).toContain('Your role is viewer');
    expect(await awaiting()).toEqual(['PAY-BIG', 'PAY-NO']);
    expect(orderNow('PAY-BIG').status).toBe('INIT');
    await context.close();
  });

  it('approves a payout that waits for approval and sees the real worker sign it and pay it on anvil', async () => {
    const { context, page, problems } = await signedIn(ADMIN);
    await page.goto(`${s.served.url}/admin/payouts`);
    const row = page.locator(`#approval tr[data-order="${orderNow('PAY-BIG').id}"]`);
    expect(await row.locator('td[data-label=Amount]').textContent()).toBe('12');
    expect(await received(BIG_TO)).toBe(0n);
    await row.locator('input[name=confirm]').check();
    await Promise.all([
      page.waitForURL(/done=approved/),
      row.getByRole('button', { name: 'Approve' }).click(),
    ]);
    expect(await text(page, '[role=status]')).toContain('The payout is approved');
    expect(await awaiting()).toEqual(['PAY-NO']);
    await until(
      () => orderNow('PAY-BIG').status,
      (s) => s === 'PENDING_CONFIRMATION',
      'the worker to sign and send the approved payout',
    );
    expect(await received(BIG_TO)).toBe(12_000_000n);
    await s.w.mine('POLYGON', 3);
    const paidOut = await until(
      () => orderNow('PAY-BIG'),
      (o) => o.status === 'SUCCESS',
      'the approved payout to succeed',
    );
    await page.goto(`${s.served.url}/admin/orders/${paidOut.id}`);
    expect(await page.locator('#holds tr[data-hold=approval]').getAttribute('data-resolution')).toBe(
      'approved',
    );
    expect(
      await page.locator('#ledger tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.kind)),
    ).toEqual(['payout_freeze', 'payout_debit']);
    expect(await received(BIG_TO)).toBe(12_000_000n);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('rejects a payout with a reason: it ends Failed with it, and the merchant hears it', async () => {
    const { context, page } = await signedIn(ADMIN);
    await page.goto(`${s.served.url}/admin/payouts`);
    const no = orderNow('PAY-NO');
    const row = page.locator(`#approval tr[data-order="${no.id}"]`);
    await row.locator('input[name=reason]').fill('not a customer we know');
    const heard = s.receiver.received.length;
    await Promise.all([
      page.waitForURL(/done=rejected/),
      row.getByRole('button', { name: 'Reject' }).click(),
    ]);
    expect(await text(page, '[role=status]')).toContain('The payout is rejected');
    expect(orderNow('PAY-NO')).toMatchObject({ status: 'FAILED', reason: 'not a customer we know' });
    expect(await page.locator('#approval tbody tr').count()).toBe(0);
    await s.receiver.waitFor(heard + 1);
    const told = s.receiver.received.slice(heard).map((r) => JSON.parse(r.body).data);
    expect(told).toContainEqual(
      expect.objectContaining({ orderId: 'PAY-NO', status: 'FAILED', reason: 'not a customer we know' }),
    );
    await context.close();
  });

  it('retries a payout held because its nonce was spent elsewhere: signed again in a new slot and paid once', async () => {
    // nothing else may be broadcast meanwhile: the earlier payouts are final
    await s.w.mine('POLYGON', 3);
    await until(
      () => orderNow('PAY-7').status,
      (s) => s === 'SUCCESS',
      'the first payout to succeed',
    );
    // the worker's broadcast of the new payout is held at the proxy while the hot wallet's key
    // spends the same nonce elsewhere (the operator used the key by hand): Kassa cannot tell what
    // spent it, so it holds the payout
    s.proxy.add({ method: 'eth_sendRawTransaction', times: 1, fault: { kind: 'hold' } });
    const res = await s.w.h.post('/v1/order/createPayout', s.m, {
      amount: '2',
      symbol: 'USDC',
      chain: 'POLYGON',
      orderId: 'PAY-HELD',
      receiveAddress: HELD_TO,
    });
    expect(res.status).toBe(200);
    await until(
      () => s.proxy.held,
      (n) => n === 1,
      'the broadcast to be held',
    );
    const held = orderNow('PAY-HELD');
    const [signed] = attemptsOfOrder(s.w.h.db, held.id);
    await spendHotWalletNonce(s.w, 'POLYGON', signed?.nonce ?? 0);
    s.proxy.release();
    await until(
      async () => (await listOperatorPayouts(s.w.h.rt, { stuck: true })).map((p) => p.orderId),
      (ids) => ids.includes('PAY-HELD'),
      'the payout to be held as stuck',
    );

    const { context, page } = await signedIn(ADMIN);
    await page.goto(`${s.served.url}/admin/payouts`);
    const row = page.locator(`#held [data-order="${held.id}"]`);
    const shown = (await row.textContent()) ?? '';
    expect(shown).toContain('was used by a transaction Kassa did not record');
    expect(shown).toContain(`nonce ${signed?.nonce}`);
    expect(await row.locator(`[title="${signed?.txHash}"]`).count()).toBe(1);
    expect(await received(HELD_TO)).toBe(0n);
    await row.locator('input[name=confirm]').check();
    await Promise.all([
      page.waitForURL(/done=retried/),
      row.getByRole('button', { name: 'Retry in a new slot' }).click(),
    ]);
    expect(await text(page, '[role=status]')).toContain('signed again, in a new slot');
    await until(
      () => orderNow('PAY-HELD').status,
      (s) => s === 'PENDING_CONFIRMATION',
      'the worker to sign the payout again',
    );
    await s.w.mine('POLYGON', 3);
    await until(
      () => orderNow('PAY-HELD').status,
      (s) => s === 'SUCCESS',
      'the retried payout to succeed',
    );
    expect(await received(HELD_TO)).toBe(2_000_000n);
    const attempts = attemptsOfOrder(s.w.h.db, held.id);
    expect(attempts.map((a) => a.status)).toEqual(['dropped', 'final']);
    expect(attempts[1]?.nonce).toBe((signed?.nonce ?? 0) + 1);
    await context.close();
  });
});
