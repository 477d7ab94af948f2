import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readOrder } from '../../../test/checkout/orders.ts';
import {
  type AdminClient,
  adminAndViewer,
  holdAsStuck,
  payByScan,
  sectionOf,
} from '../../../test/helpers/admin.ts';
import { body, type Harness, makeHarness } from '../../../test/helpers/harness.ts';
import { findOrderByMerchantOrderId } from '../../db/repositories/orders.ts';
import type { Order } from '../../domain/order.ts';
import type { MerchantCreated } from '../../services/manage-merchants.ts';
import { mountAdminDashboard } from '../dashboard.ts';

/**
 * An order's page in process, for what the ledger and the payout controls added: a payout's hold
 * (awaiting approval, held as stuck) with the operator's decision and the forms to take it, its
 * spend slot, and what the order moved on its merchant's ledger.
 */
let h: Harness;
let m: MerchantCreated;
let admin: AdminClient;
let viewer: AdminClient;
const TO = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

beforeAll(async () => {
  h = await makeHarness({ payouts: { limits: { approvalAbove: { USDT: '100' } } } });
  mountAdminDashboard(h.app, h.rt);
  ({ admin, viewer } = await adminAndViewer(h));
  m = await h.merchant('V3');
  h.clock.advance(1000);
  await h.fund(m, 'TRON', 'USDT', '1000');
  for (const [orderId, amount] of [
    ['PAY-BIG', '250'],
    ['PAY-STUCK', '7'],
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
  await holdAsStuck(h.db, order('PAY-STUCK'), {
    txHash: 'ef'.repeat(32),
    slot: 'ref block 0a0b/0c0d0e0f10111213, expires 2026-11-25T12:01:00.000Z',
    reason: 'Its spend slot was used by a transaction Kassa did not record.',
    now: h.clock.now(),
  });
});
afterAll(() => h?.close());

function order(orderId: string): Order {
  const o = findOrderByMerchantOrderId(h.db, m.merchantId, orderId);
  if (!o) throw new Error(`no order ${orderId}`);
  return o;
}

const kinds = (html: string) => [...html.matchAll(/<tr data-kind="([a-z_]+)"/g)].map((r) => r[1]);

describe('a payout’s page', () => {
  it('shows one awaiting approval as waiting, with the forms for an admin, and its money frozen', async () => {
    const id = order('PAY-BIG').id;
    const html = (await admin.page(`/admin/orders/${id}`)).html;
    const holds = sectionOf(html, 'holds');
    expect(holds).toMatch(/<tr data-hold="approval" data-resolution="open">/);
    expect(holds).toContain('Waiting for approval.');
    expect(holds).toContain('waiting for a decision');
    expect(holds).toContain(`action="/admin/payouts/${id}/approve"`);
    expect(holds).toContain(`name="back" value="/admin/orders/${id}"`);
    expect(kinds(sectionOf(html, 'ledger'))).toEqual(['payout_freeze']);
    expect(sectionOf(html, 'ledger')).toMatch(/-250\.00 USDT[\s\S]*\+250\.00 USDT/);
    expect(html).toMatch(/<li data-kind="held">[\s\S]*?Waits: approval/);

    const view = (await viewer.page(`/admin/orders/${id}`)).html;
    expect(sectionOf(view, 'holds')).toContain('waiting for a decision');
    expect(view).not.toContain(`/admin/payouts/${id}/approve`);
  });

  it('shows the rejection with the operator’s reason and the money released, once rejected from it', async () => {
    const id = order('PAY-BIG').id;
    const page = await admin.page(`/admin/orders/${id}`);
    const res = await admin.request(`/admin/payouts/${id}/reject`, {
      form: { csrf: admin.csrfOf(page.html), reason: 'unknown recipient', back: `/admin/orders/${id}` },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/admin/orders/${id}?done=rejected`);
    const html = (await admin.page(`/admin/orders/${id}?done=rejected`)).html;
    expect(html).toContain('The payout is rejected');
    const holds = sectionOf(html, 'holds');
    expect(holds).toMatch(/<tr data-hold="approval" data-resolution="rejected">/);
    expect(holds).toContain('unknown recipient');
    expect(holds).not.toContain('action=');
    expect(kinds(sectionOf(html, 'ledger'))).toEqual(['payout_freeze', 'payout_release']);
    expect(html).toMatch(/<li data-kind="decided">[\s\S]*?Decided: rejected/);
  });

  it('shows a held payout’s reason, its transaction’s spend slot, and retry / fail for an admin', async () => {
    const id = order('PAY-STUCK').id;
    const html = (await admin.page(`/admin/orders/${id}`)).html;
    const holds = sectionOf(html, 'holds');
    expect(holds).toMatch(/<tr data-hold="stuck" data-resolution="open">/);
    expect(holds).toContain('Its spend slot was used by a transaction Kassa did not record.');
    expect(holds).toContain(`action="/admin/payouts/${id}/retry"`);
    expect(holds).toContain(`action="/admin/payouts/${id}/fail"`);
    const attempts = /<table class="stack" id="attempts">([\s\S]*?)<\/table>/.exec(html)?.[1];
    expect(attempts).toContain('ref block 0a0b/0c0d0e0f10111213, expires 2026-11-25T12:01:00.000Z');
  });

  it('says a payout that needed no decision was never held, and shows a collection’s credit', async () => {
    h.clock.advance(1000);
    expect(
      (
        await body(
          await h.post('/v1/order/createCollection', m, {
            amount: '30',
            symbol: 'USDT',
            chain: 'ETH',
            orderId: 'INV-1',
          }),
        )
      ).code,
    ).toBe(200);
    const paid = readOrder(h, { merchant: m, orderId: 'INV-1' });
    payByScan(h.db, paid, { txid: `0x${'9a'.repeat(32)}`, now: h.clock.now() });
    const html = (await admin.page(`/admin/orders/${paid.id}`)).html;
    expect(html).not.toContain('id="holds"');
    expect(kinds(sectionOf(html, 'ledger'))).toEqual(['collection_credit']);
    expect(sectionOf(html, 'ledger')).toContain('+30.00 USDT');

    h.clock.advance(1000);
    await h.post('/v1/order/createPayout', m, {
      amount: '5',
      symbol: 'USDT',
      chain: 'TRON',
      orderId: 'PAY-SMALL',
      receiveAddress: TO,
    });
    const small = (await admin.page(`/admin/orders/${order('PAY-SMALL').id}`)).html;
    expect(sectionOf(small, 'holds')).toContain('Nothing held this payout');
  });
});
