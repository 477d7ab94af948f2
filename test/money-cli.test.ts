import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOrderByMerchantOrderId } from '../src/db/repositories/orders.ts';
import type { MerchantCreated } from '../src/services/manage-merchants.ts';
import { kassa } from './helpers/cli.ts';
import { body, type Harness, makeHarness, TEST_MASTER_KEY, TEST_MNEMONIC } from './helpers/harness.ts';

/**
 * `kassa ledger …` and `kassa payouts …` as real child processes on a database the test prepared:
 * `--json` prints one JSON document on stdout, logs go to stderr, usage mistakes exit 2.
 */
let h: Harness;
let m: MerchantCreated;
let other: MerchantCreated;
let env: Record<string, string>;
let configFile: string;
const TO = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const limits = { payouts: { limits: { approvalAbove: { USDT: '100' } } } };

beforeAll(async () => {
  h = await makeHarness(limits);
  m = await h.merchant('V3');
  other = await h.merchant('V3');
  h.clock.set(Date.now());
  configFile = join(h.dir, 'kassa.json');
  writeFileSync(configFile, JSON.stringify(limits));
  env = {
    KASSA_DB: join(h.dir, 'kassa.db'),
    KASSA_MNEMONIC: TEST_MNEMONIC,
    KASSA_MASTER_KEY: TEST_MASTER_KEY,
    KASSA_LOG_LEVEL: 'info',
  };
});
afterAll(() => h?.close());

const run = (...args: string[]) => kassa([...args, '--config', configFile], env);

describe('kassa ledger', () => {
  it('adjust tops a balance up with a reason, balances and entries show it as one JSON document', () => {
    const up = run(
      'ledger',
      'adjust',
      '--merchant',
      m.merchantId,
      '--chain',
      'TRON',
      '--symbol',
      'usdt',
      '--amount',
      '+250.5',
      '--reason',
      'prefunded by wire 4711',
      '--json',
    );
    expect(up.code).toBe(0);
    expect(JSON.parse(up.stdout)).toMatchObject({
      chain: 'TRON',
      symbol: 'USDT',
      available: '250.50',
      frozen: '0.00',
      total: '250.50',
    });
    expect(up.stderr).toContain('"msg":"ledger adjusted"');
    const down = run(
      'ledger',
      'adjust',
      '--merchant',
      m.merchantId,
      '--chain',
      'TRON',
      '--symbol',
      'USDT',
      '--amount',
      '-0.5',
      '--reason',
      'bank fee',
    );
    expect(down.code).toBe(0);
    expect(down.stdout).toBe(`${m.merchantId} TRON USDT: available 250.00, frozen 0.00, total 250.00\n`);

    const balances = run('ledger', 'balances', '--json');
    expect(JSON.parse(balances.stdout)).toEqual([
      expect.objectContaining({
        merchantId: m.merchantId,
        chain: 'TRON',
        symbol: 'USDT',
        available: '250.00',
      }),
    ]);
    expect(JSON.parse(run('ledger', 'balances', '--merchant', other.merchantId, '--json').stdout)).toEqual(
      [],
    );
    const entries = JSON.parse(run('ledger', 'entries', '--merchant', m.merchantId, '--json').stdout);
    expect(
      entries.map((e: { kind: string; available: string; reason: string }) => [
        e.kind,
        e.available,
        e.reason,
      ]),
    ).toEqual([
      ['adjustment', '+250.50', 'prefunded by wire 4711'],
      ['adjustment', '-0.50', 'bank fee'],
    ]);
  });

  it('refuses an adjustment without a reason (usage, exit 2) or one that takes the balance below zero (exit 1)', () => {
    const noReason = run(
      'ledger',
      'adjust',
      '--merchant',
      m.merchantId,
      '--chain',
      'TRON',
      '--symbol',
      'USDT',
      '--amount',
      '5',
    );
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('ledger adjust needs --reason (a reason is required)');
    const blank = run(
      'ledger',
      'adjust',
      '--merchant',
      m.merchantId,
      '--chain',
      'TRON',
      '--symbol',
      'USDT',
      '--amount',
      '5',
      '--reason',
      '  ',
    );
    expect(blank.code).toBe(2);
    const negative = run(
      'ledger',
      'adjust',
      '--merchant',
      m.merchantId,
      '--chain',
      'TRON',
      '--symbol',
      'USDT',
      '--amount',
      '-300',
      '--reason',
      'oops',
    );
    expect(negative.code).toBe(1);
    expect(negative.stderr).toContain(
      'has 250.00 USDT available on TRON; an adjustment of -300.00 would take it below zero',
    );
    const precise = run(
      'ledger',
      'adjust',
      '--merchant',
      m.merchantId,
      '--chain',
      'TRON',
      '--symbol',
      'USDT',
      '--amount',
      '1.0000001',
      '--reason',
      'x',
    );
    expect(precise.code).toBe(1);
    expect(precise.stderr).toContain('at most 6 decimals');
    expect(JSON.parse(run('ledger', 'balances', '--json').stdout)[0].available).toBe('250.00');
  });
});

describe('kassa payouts', () => {
  it('lists payouts awaiting approval and approves or rejects them (with a required reason)', async () => {
    const p = await h.merchant('V3');
    h.clock.advance(1000);
    await h.fund(p, 'TRON', 'USDT', '250');
    for (const orderId of ['big-1', 'big-2', 'small-1']) {
      const amount = orderId.startsWith('big') ? '120' : '5';
      h.clock.advance(1000);
      const res = await h.post('/v1/order/createPayout', p, {
        amount,
        symbol: 'USDT',
        chain: 'TRON',
        orderId,
        receiveAddress: TO,
      });
      expect((await body(res)).code).toBe(200);
    }
    const waiting = run('payouts', 'list', '--awaiting-approval', '--json');
    expect(waiting.code).toBe(0);
    expect(
      JSON.parse(waiting.stdout).map((p: { orderId: string; hold: string; reason: string }) => [
        p.orderId,
        p.hold,
        p.reason,
      ]),
    ).toEqual([
      ['big-2', 'approval', 'Waiting for approval.'],
      ['big-1', 'approval', 'Waiting for approval.'],
    ]);
    expect(JSON.parse(run('payouts', 'list', '--status', 'INIT', '--json').stdout)).toHaveLength(3);
    expect(run('payouts', 'list', '--stuck', '--json').stdout).toBe('[]\n');

    expect(run('payouts', 'approve', 'big-1').stdout).toBe(
      `payout big-1 (${p.merchantId}) approved; it is signed on the next payout pass: INIT\n`,
    );
    expect(run('payouts', 'reject', 'big-2').code).toBe(2);
    const rejected = run('payouts', 'reject', 'big-2', '--reason', 'not a known customer', '--json');
    expect(JSON.parse(rejected.stdout)).toMatchObject({
      orderId: 'big-2',
      status: 'FAILED',
      reason: 'not a known customer',
    });
    expect(findOrderByMerchantOrderId(h.db, p.merchantId, 'big-1')?.reason).toBeNull();
    expect(run('payouts', 'list', '--awaiting-approval', '--json').stdout).toBe('[]\n');
    // the rejected payout's 120 is available again; the other two (125) stay frozen
    expect(JSON.parse(run('ledger', 'balances', '--merchant', p.merchantId, '--json').stdout)).toEqual([
      expect.objectContaining({ available: '125.00', frozen: '125.00', total: '250.00' }),
    ]);
    const again = run('payouts', 'approve', 'big-1');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Payout big-1 is not waiting for approval');
  });

  it('asks for --merchant when two merchants used the same orderId', async () => {
    await h.fund(other, 'TRON', 'USDT', '500');
    const res = await h.post('/v1/order/createPayout', other, {
      amount: '150',
      symbol: 'USDT',
      chain: 'TRON',
      orderId: 'big-1',
      receiveAddress: TO,
    });
    expect((await body(res)).code).toBe(200);
    const ambiguous = run('payouts', 'approve', 'big-1');
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toContain('Several merchants used the orderId big-1');
    expect(run('payouts', 'approve', 'big-1', '--merchant', other.merchantId).code).toBe(0);
    expect(JSON.parse(run('payouts', 'list', '--merchant', other.merchantId, '--json').stdout)).toEqual([
      expect.objectContaining({
        orderId: 'big-1',
        merchantId: other.merchantId,
        amount: '150.00',
        hold: null,
      }),
    ]);
  });

  it('pauses and resumes signing per chain or everywhere', () => {
    expect(JSON.parse(run('payouts', 'pause', '--chain', 'tron', '--json').stdout)).toEqual({
      paused: ['TRON'],
    });
    expect(run('payouts', 'pause').stdout).toBe(
      'payout signing paused on TRON, ETH, BSC, POLYGON, AVAX_C_CHAIN, SUI\n',
    );
    expect(JSON.parse(run('payouts', 'resume', '--chain', 'ETH', '--json').stdout)).toEqual({
      paused: ['TRON', 'BSC', 'POLYGON', 'AVAX_C_CHAIN', 'SUI'],
    });
    expect(run('payouts', 'resume').stdout).toBe('payout signing runs on every chain\n');
    expect(run('payouts', 'pause', '--chain', 'BTC').code).toBe(2);
  });
});
