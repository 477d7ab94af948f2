import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AdminClient,
  adminAndViewer,
  holdAsStuck,
  keptLogger,
  sectionOf,
} from '../../../test/helpers/admin.ts';
import { body, type Harness, makeHarness } from '../../../test/helpers/harness.ts';
import { listBalances } from '../../db/repositories/ledger.ts';
import { findOrderByMerchantOrderId } from '../../db/repositories/orders.ts';
import { attemptsOfOrder } from '../../db/repositories/payouts.ts';
import { listWebhookEvents } from '../../db/repositories/webhook-log.ts';
import type { Order } from '../../domain/order.ts';
import type { MerchantCreated } from '../../services/manage-merchants.ts';
import { listOperatorPayouts } from '../../services/manage-payouts.ts';
import { pausedChains } from '../../services/payout-pause.ts';
import { mountAdminDashboard } from '../dashboard.ts';

/**
 * The payouts page in process: payouts awaiting approval (approve, reject with a reason), payouts
 * held as stuck (what Kassa knows; retry, fail with a reason), the queue (signing paused per chain
 * is payouts-signing.test.ts). Every decision is a POST with the CSRF field, for admins only, logged with the
 * operator's email; a refused one answers 4xx and changes nothing.
 */
let h: Harness;
let m: MerchantCreated;
let admin: AdminClient;
let viewer: AdminClient;
const logs = keptLogger();
const TO = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const STUCK_TX = 'ab'.repeat(32);
const STUCK_WHY =
  'Its spend slot (ref block 1a2b/3c4d5e6f7a8b9c0d) was used by a transaction Kassa did not record; check the chain, then kassa payouts retry or fail.';

beforeAll(async () => {
  h = await makeHarness({ payouts: { limits: { approvalAbove: { USDT: '100' } } } });
  h.rt.logger = logs.logger;
  mountAdminDashboard(h.app, h.rt);
  ({ admin, viewer } = await adminAndViewer(h));
  m = await h.merchant('V3');
  await h.fund(m, 'TRON', 'USDT', '1000');
  for (const [orderId, amount] of [
    ['big-1', '150'],
    ['big-2', '120'],
    ['big-3', '101'],
    ['big-4', '102'],
    ['small-1', '5'],
    ['stuck-1', '7'],
    ['stuck-2', '8'],
  ]) {
    h.clock.advance(1000);
    const res = await h.post('/v1/order/createPayout', m, {
      amount,
      symbol: 'USDT',
      chain: 'TRON',
      orderId,
      receiveAddress: TO,
    });
    expect((await body(res)).code).toBe(200);
  }
  await holdAsStuck(h.db, order('stuck-1'), {
    txHash: STUCK_TX,
    slot: 'ref block 1a2b/3c4d5e6f7a8b9c0d, expires 2026-11-25T12:01:00.000Z',
    reason: STUCK_WHY,
    now: h.clock.now(),
  });
  await holdAsStuck(h.db, order('stuck-2'), {
    txHash: 'cd'.repeat(32),
    slot: 'ref block 9999/0000000000000000, expires 2026-11-25T12:01:00.000Z',
    reason: STUCK_WHY,
    now: h.clock.now(),
  });
});
afterAll(() => h?.close());

function order(orderId: string): Order {
  const o = findOrderByMerchantOrderId(h.db, m.merchantId, orderId);
  if (!o) throw new Error(`no payout ${orderId}`);
  return o;
}

const rowsOf = (html: string) => [...html.matchAll(/ data-order="(ord_[a-z0-9]+)"/g)].map((r) => r[1]);

async function decide(
  client: typeof admin,
  orderId: string,
  decision: string,
  form: Record<string, string> = {},
) {
  const csrf = client.csrfOf((await client.page('/admin/payouts')).html);
  return client.request(`/admin/payouts/${order(orderId).id}/${decision}`, { form: { csrf, ...form } });
}

const frozen = async () =>
  (await listBalances(h.db, { merchantId: m.merchantId, chain: 'TRON', symbol: 'USDT' }))[0];

describe('the payouts page', () => {
  it('is announced on the overview: how many payouts wait for the operator, as an alert', async () => {
    const html = (await admin.page('/admin')).html;
    expect(html).toMatch(
      /<a class="tile" href="\/admin\/payouts" id="payouts-waiting" data-alert="">\s*<strong>6<\/strong>\s*<span>Payouts waiting for you: 4 to approve, 2 held<\/span>/,
    );
  });

  it('lists payouts awaiting approval, held payouts with why, slot and transaction, and the queue without them', async () => {
    const { status, html } = await admin.page('/admin/payouts');
    expect(status).toBe(200);
    expect(html).not.toContain('arrive with the merchant ledger');
    expect(rowsOf(sectionOf(html, 'approval'))).toEqual(
      ['big-1', 'big-2', 'big-3', 'big-4'].map((x) => order(x).id),
    );
    const held = sectionOf(html, 'held');
    expect(rowsOf(held)).toEqual([order('stuck-1').id, order('stuck-2').id]);
    expect(held).toContain(STUCK_WHY);
    expect(held).toContain('ref block 1a2b/3c4d5e6f7a8b9c0d, expires 2026-11-25T12:01:00.000Z');
    expect(held).toContain(`title="${STUCK_TX}"`);
    // the queue holds what the worker will sign, numbered: not the payouts waiting for the operator
    const queue = /<table class="stack" id="payouts">([\s\S]*?)<\/table>/.exec(html)?.[1] as string;
    expect(rowsOf(queue)).toEqual([order('small-1').id]);
    expect(queue).toMatch(/data-label="#"[^>]*><div>1</);
    // admins get the forms
    expect(sectionOf(html, 'approval')).toContain(`action="/admin/payouts/${order('big-1').id}/approve"`);
    expect(held).toContain(`action="/admin/payouts/${order('stuck-1').id}/retry"`);
    expect(held).toContain(`action="/admin/payouts/${order('stuck-1').id}/fail"`);
  });

  it('approves a payout once its box is ticked: back to the page with a note, queued for signing, logged with the email', async () => {
    const without = await decide(admin, 'big-1', 'approve');
    expect(without.status).toBe(400);
    expect(await without.text()).toContain('Tick the box to confirm');
    expect((await listOperatorPayouts(h.rt, { awaitingApproval: true })).map((p) => p.orderId)).toContain(
      'big-1',
    );

    const res = await decide(admin, 'big-1', 'approve', { confirm: 'yes' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/payouts?done=approved');
    expect((await listOperatorPayouts(h.rt, { awaitingApproval: true })).map((p) => p.orderId)).not.toContain(
      'big-1',
    );
    const page = (await admin.page('/admin/payouts?done=approved')).html;
    expect(page).toContain('The payout is approved: the worker signs it on its next pass.');
    const queue = /<table class="stack" id="payouts">([\s\S]*?)<\/table>/.exec(page)?.[1] as string;
    expect(rowsOf(queue)).toEqual([order('big-1').id, order('small-1').id]);
    expect(logs.lines).toContainEqual(
      expect.objectContaining({
        msg: 'dashboard: payout decided',
        admin: 'ops@shop.example',
        action: 'approve',
        orderId: 'big-1',
        merchantId: m.merchantId,
      }),
    );
    // a second press (the form sent twice) is refused: it is not waiting any more
    const again = await decide(admin, 'big-1', 'approve', { confirm: 'yes' });
    expect(again.status).toBe(409);
    expect(await again.text()).toContain('Payout big-1 is not waiting for approval');
  });

  it('rejects a payout with the reason: FAILED with it, its money released, the merchant told; a blank reason is refused', async () => {
    const before = await frozen();
    const blank = await decide(admin, 'big-2', 'reject', { reason: '   ' });
    expect(blank.status).toBe(400);
    expect(order('big-2').status).toBe('INIT');

    const res = await decide(admin, 'big-2', 'reject', { reason: 'not a known customer' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/payouts?done=rejected');
    expect(order('big-2')).toMatchObject({ status: 'FAILED', reason: 'not a known customer' });
    const after = await frozen();
    expect(after?.available).toBe((before?.available ?? 0n) + 120_000_000n);
    expect(after?.frozen).toBe((before?.frozen ?? 0n) - 120_000_000n);
    const events = listWebhookEvents(h.db, { order: order('big-2').id, limit: 10 });
    expect(events.map((e) => e.notifyType)).toContain('ORDER_FAILED');
    expect(logs.lines).toContainEqual(
      expect.objectContaining({
        msg: 'dashboard: payout decided',
        admin: 'ops@shop.example',
        action: 'reject',
        orderId: 'big-2',
        reason: 'not a known customer',
      }),
    );
  });

  it('shows a viewer the payouts without a form, and refuses a decision sent anyway with 403, logged', async () => {
    const { html } = await viewer.page('/admin/payouts');
    expect(rowsOf(sectionOf(html, 'approval'))).toEqual([order('big-3').id, order('big-4').id]);
    expect(html).not.toMatch(/action="\/admin\/payouts\/[^"]+\/(approve|reject|retry|fail)"/);
    expect(html).not.toContain('action="/admin/payouts/pause"');
    for (const [orderId, decision, form] of [
      ['big-3', 'approve', { confirm: 'yes' }],
      ['big-3', 'reject', { reason: 'sneaky' }],
      ['stuck-2', 'retry', { confirm: 'yes' }],
    ] as const) {
      const res = await decide(viewer, orderId, decision, form);
      expect(res.status, decision).toBe(403);
      expect(await res.text()).toContain('Your role is viewer');
    }
    const pause = await viewer.request('/admin/payouts/pause', {
      form: { csrf: viewer.csrfOf(html), chain: 'TRON' },
    });
    expect(pause.status).toBe(403);
    expect(order('big-3').status).toBe('INIT');
    expect((await listOperatorPayouts(h.rt, { awaitingApproval: true })).map((p) => p.orderId)).toEqual([
      'big-4',
      'big-3',
    ]);
    expect((await listOperatorPayouts(h.rt, { stuck: true })).map((p) => p.orderId).sort()).toEqual([
      'stuck-1',
      'stuck-2',
    ]);
    expect(await pausedChains(h.rt)).toEqual(new Set());
    expect(logs.lines).toContainEqual(
      expect.objectContaining({
        msg: 'dashboard: action refused',
        admin: 'look@shop.example',
        refused: 'viewer',
        path: `/admin/payouts/${order('big-3').id}/approve`,
      }),
    );
  });

  it('refuses a decision without the CSRF field, on a payout not waiting for it, or on no payout', async () => {
    const noCsrf = await admin.request(`/admin/payouts/${order('big-3').id}/approve`, {
      form: { confirm: 'yes' },
    });
    expect(noCsrf.status).toBe(403);
    expect(order('big-3').status).toBe('INIT');
    // a stuck payout is not waiting for approval, an approval is not held
    expect((await decide(admin, 'stuck-1', 'approve', { confirm: 'yes' })).status).toBe(409);
    expect((await decide(admin, 'big-3', 'retry', { confirm: 'yes' })).status).toBe(409);
    const csrf = admin.csrfOf((await admin.page('/admin/payouts')).html);
    const nowhere = await admin.request('/admin/payouts/ord_doesnotexist0000000/approve', {
      form: { csrf, confirm: 'yes' },
    });
    expect(nowhere.status).toBe(404);
    const unknown = await admin.request(`/admin/payouts/${order('big-3').id}/send`, { form: { csrf } });
    expect(unknown.status).toBe(404);
    expect((await listOperatorPayouts(h.rt, { awaitingApproval: true })).map((p) => p.orderId)).toEqual([
      'big-4',
      'big-3',
    ]);
  });

  it('retries a held payout once the chain is said to be checked: its transaction given up, back in the queue', async () => {
    expect((await decide(admin, 'stuck-1', 'retry')).status).toBe(400);
    expect((await listOperatorPayouts(h.rt, { stuck: true })).map((p) => p.orderId)).toContain('stuck-1');
    const res = await decide(admin, 'stuck-1', 'retry', { confirm: 'yes' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/payouts?done=retried');
    expect(attemptsOfOrder(h.db, order('stuck-1').id).map((a) => a.status)).toEqual(['dropped']);
    expect(order('stuck-1').status).toBe('PENDING');
    const page = (await admin.page('/admin/payouts')).html;
    expect(rowsOf(sectionOf(page, 'held'))).toEqual([order('stuck-2').id]);
    const queue = /<table class="stack" id="payouts">([\s\S]*?)<\/table>/.exec(page)?.[1] as string;
    expect(queue).toContain(`data-order="${order('stuck-1').id}"`);
    expect(logs.lines).toContainEqual(
      expect.objectContaining({ msg: 'dashboard: payout decided', action: 'retry', orderId: 'stuck-1' }),
    );
  });

  it('fails a held payout with the reason: FAILED, its money released; a blank reason is refused', async () => {
    expect((await decide(admin, 'stuck-2', 'fail', { reason: '' })).status).toBe(400);
    const before = await frozen();
    const res = await decide(admin, 'stuck-2', 'fail', { reason: 'paid by bank transfer instead' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/admin/payouts?done=failed');
    expect(order('stuck-2')).toMatchObject({ status: 'FAILED', reason: 'paid by bank transfer instead' });
    expect((await frozen())?.available).toBe((before?.available ?? 0n) + 8_000_000n);
    expect((await admin.page('/admin/payouts')).html).toContain('No payout is held.');
  });

  it('goes back to the order page when the decision was taken there', async () => {
    const id = order('big-3').id;
    const res = await decide(admin, 'big-3', 'approve', { confirm: 'yes', back: `/admin/orders/${id}` });
    expect(res.headers.get('location')).toBe(`/admin/orders/${id}?done=approved`);
    const elsewhere = await decide(admin, 'big-4', 'approve', {
      confirm: 'yes',
      back: 'https://evil.example/',
    });
    expect(elsewhere.headers.get('location')).toBe('/admin/payouts?done=approved');
  });
});
