import { type Address, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/schema.ts';
import { findDepositAddress } from '../../src/db/repositories/deposit-addresses.ts';
import { findOrderByMerchantOrderId } from '../../src/db/repositories/orders.ts';
import { transferToken } from '../../src/devnet/evm/tokens.ts';
import { formatAmount } from '../../src/domain/money.ts';
import { createKeyRing } from '../../src/keys/key-ring.ts';
import { expireOrders } from '../../src/services/expire-orders.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { runSweeps } from '../../src/services/run-sweeps.ts';
import { kassa } from '../helpers/cli.ts';
import { type EvmWorld, evmWorld } from '../helpers/evm-chain.ts';
import { cliEnv, payOutAll, scanToFinal } from '../helpers/evm-ledger-ops.ts';
import { body, TEST_MNEMONIC } from '../helpers/harness.ts';

/**
 * The whole life of 100 collections on anvil, every sweep done by the sweep service itself: paid
 * exactly (USDT, which returns nothing from `transfer`, USDC and ETH), partly then expired, over,
 * paid again after SUCCESS, paid after expiry, never paid. Twenty sweeps go to a treasury, the rest
 * to the hot wallet (each token sweep with its gas top-up), payouts leave the hot wallet, and
 * `kassa reconcile --json` finds every unit where the records put it. Then a deposit address's
 * leftover gas is taken with its own key: reconcile reports exactly that one difference and exits 1.
 */
let w: EvmWorld;
let m: MerchantCreated;
let env: Record<string, string>;
const USDT = 1_000_000n;
const keys = createKeyRing(TEST_MNEMONIC);
const treasury = '0x7777777777777777777777777777777777777777' as Address;
const stranger = '0x5555555555555555555555555555555555555555' as Address;
const sweepConfig = {
  chains: {
    ETH: {
      sweep: { destination: 'hot', minAmount: { USDT: '1', USDC: '1', ETH: '0.001' }, nativeValue: '100' },
    },
  },
};

beforeAll(async () => {
  w = await evmWorld(['ETH'], { overrides: sweepConfig });
  m = await w.h.merchant('V3');
  env = cliEnv(w, sweepConfig);
}, 120_000);
afterAll(() => w?.close());

const adapter = () => w.h.rt.adapters.get('ETH') as NonNullable<ReturnType<typeof w.h.rt.adapters.get>>;
const status = (orderId: string) => findOrderByMerchantOrderId(w.h.db, m.merchantId, orderId)?.status;
const ethOf = (who: string) => w.devnet.get('ETH').client.getBalance({ address: who as Address });

/** The runtime with the ETH sweep destination (and batch size) changed, as an operator's new config would. */
function sweepingTo(destination: string, batchSize: number) {
  const config = w.h.rt.config;
  const eth = config.chains.ETH;
  return {
    ...w.h.rt,
    config: {
      ...config,
      chains: { ...config.chains, ETH: { ...eth, sweep: { ...eth.sweep, destination, batchSize } } },
    } as Config,
  };
}

/** Sweep passes, mining between them, until no sweep is open (and, with `planNew`, none is started). */
async function sweepUntilDone(deps: ReturnType<typeof sweepingTo>, planNew: boolean) {
  for (let i = 0; i < 30; i++) {
    const s = await runSweeps(deps, adapter(), new AbortController().signal, { holder: 'test', planNew });
    if (s.open === 0 && (s.started === 0 || !planNew)) return;
    await w.mine('ETH', 4);
  }
  throw new Error('sweeps still open after 30 passes');
}

function reconcileCli(...flags: string[]) {
  const r = kassa(['reconcile', '--json', ...flags, '--config', env.CONFIG as string], env);
  expect(r.stderr).toBe('');
  return { code: r.code, report: JSON.parse(r.stdout) };
}

type Line = {
  role: string;
  symbol: string;
  float?: string;
  difference: string;
  status: string;
  address: string;
};
/** What each hot-wallet holding carries beyond the records (what the operator funded it with), by symbol. */
const hotFloats = (report: { holdings: Line[] }) =>
  Object.fromEntries(report.holdings.filter((h) => h.role === 'hot').map((h) => [h.symbol, h.float]));

describe('kassa reconcile after 100 orders with real sweeps and payouts', () => {
  const addresses: string[] = [];

  it('accounts for every unit: deposits, sweeps to the hot wallet and a treasury, top-ups, payouts', async () => {
    const pay = (i: number, symbol: 'USDT' | 'USDC' | 'native', amount: bigint) =>
      w.pay('ETH', symbol, addresses[i] as string, amount);
    for (let i = 0; i < 100; i++) {
      const native = i % 25 === 0; // four orders in ETH itself
      const symbol = native ? 'ETH' : i >= 40 && i < 50 ? 'USDC' : 'USDT';
      const r = await body<{ address: string }>(
        await w.h.post('/v1/order/createCollection', m, {
          amount: native ? '0.01' : '10',
          symbol,
          chain: 'ETH',
          orderId: `c-${i}`,
        }),
      );
      addresses.push(r.data.address);
      if (native) await pay(i, 'native', parseEther('0.01'));
      else if (i < 50)
        await pay(i, symbol as 'USDT' | 'USDC', 10n * USDT); // exact
      else if (i < 60)
        await pay(i, 'USDT', 4n * USDT); // partial: expires below
      else if (i < 70)
        await pay(i, 'USDT', 13n * USDT + 7n); // over
      else if (i < 80) await pay(i, 'USDT', 10n * USDT); // exact, and again after SUCCESS below
      // 80..89 are paid after they expired, 90..99 never
    }
    await scanToFinal(w);
    expect(status('c-1')).toBe('SUCCESS');
    expect(status('c-45')).toBe('SUCCESS');
    expect(status('c-55')).toBe('PENDING');
    expect(status('c-65')).toBe('SUCCESS');
    // Before anything is swept: every unit on its deposit address, the hot wallets' floats taken.
    const baseline = reconcileCli('--all');
    expect(baseline).toMatchObject({ code: 0, report: { ok: true, unexplained: 0, addresses: 101 } });
    const floats = hotFloats(baseline.report);

    // The operator sweeps to a treasury first: twenty sweeps, followed until final.
    const toTreasury = sweepingTo(treasury, 20);
    await runSweeps(toTreasury, adapter(), new AbortController().signal, { holder: 'test' });
    await w.mine('ETH', 4);
    await sweepUntilDone(toTreasury, false);
    const treasurySweeps = await w.h.rt.db.listSweeps();
    expect(treasurySweeps).toHaveLength(20);
    expect(treasurySweeps.every((s) => s.status === 'final')).toBe(true);

    // Late money: a second payment after SUCCESS (five of them to addresses already swept to the
    // treasury, swept again below), then the open orders expire and ten are paid after.
    for (let i = 70; i < 80; i++) if (i % 25 !== 0) await pay(i, 'USDT', 2n * USDT);
    const sweptTwice = treasurySweeps.filter((s) => s.symbol === 'USDT').slice(0, 5);
    for (const s of sweptTwice) await w.pay('ETH', 'USDT', s.address, 2n * USDT);
    await scanToFinal(w);
    const c = w.devnet.get('ETH').client;
    await c.setNextBlockTimestamp({ timestamp: (await c.getBlock()).timestamp + 61n * 60n });
    await scanToFinal(w);
    w.h.clock.advance(61 * 60 * 1000);
    await expireOrders(w.h.rt);
    expect(status('c-55')).toBe('EXPIRED');
    expect(status('c-95')).toBe('EXPIRED');
    for (let i = 80; i < 90; i++) await pay(i, 'USDT', 10n * USDT);
    await scanToFinal(w);

    // Then to the hot wallet: everything left worth sweeping.
    await sweepUntilDone(sweepingTo('hot', 200), true);
    const all = await w.h.rt.db.listSweeps();
    expect(all.every((s) => s.status === 'final')).toBe(true);
    const swept = new Set(all.map((s) => s.address));
    for (let i = 0; i < 90; i++) expect(swept.has(addresses[i] as string), `c-${i} swept`).toBe(true);
    expect(all).toHaveLength(95); // 90 paid addresses, five of them twice
    for (const t of sweptTwice) expect(all.filter((s) => s.address === t.address)).toHaveLength(2);
    const topups = (await Promise.all(all.map((s) => w.h.rt.db.sweepTxsOf(s.id))))
      .flat()
      .filter((t) => t.role === 'topup');
    expect(topups.length).toBe(all.filter((s) => s.feeMode === 'topup').length);

    // Payouts from the hot wallet, out of what was swept into it.
    await w.h.fund(m, 'ETH', 'ETH', '1');
    await payOutAll(w, m, [
      ...Array.from({ length: 10 }, (_, i) => ({ amount: `${i + 1}.5`, symbol: 'USDT' as const })),
      { amount: '3', symbol: 'USDC' },
      { amount: '0.05', symbol: 'ETH' },
    ]);
    await scanToFinal(w);

    const { code, report } = reconcileCli('--all');
    expect(report.differences).toEqual([]);
    // Every unit swept in or paid out is in the records: the floats are exactly what they were.
    expect(hotFloats(report)).toEqual(floats);
    expect(floats).toMatchObject({ USDT: '1000000.00', USDC: '1000000.00' });
    expect(report).toMatchObject({ ok: true, unexplained: 0, inFlight: 0, addresses: 101 });
    expect(code).toBe(0);
    const usdt = report.tokens.find((t: { symbol: string }) => t.symbol === 'USDT');
    const toTreasuryUsdt = treasurySweeps
      .filter((s) => s.symbol === 'USDT')
      .reduce((sum, s) => sum + BigInt(s.amountBase), 0n);
    expect(usdt).toMatchObject({
      onDeposits: '0.00',
      expectedOnDeposits: '0.00',
      sweptToTreasury: formatAmount(toTreasuryUsdt, 6),
      unexplained: '0.00',
    });
  }, 600_000);

  it('reports exactly what a deposit key took from its address after the sweep, and exits 1', async () => {
    const victim = addresses[3] as string;
    const row = findDepositAddress(w.h.db, victim);
    if (!row) throw new Error('no deposit row');
    const thief = privateKeyToAccount(`0x${keys.depositKey('evm', row.idx).toString('hex')}`);
    expect(thief.address).toBe(victim);
    // the top-up's change does not pay for a transfer: the customer sends ETH (recorded, unattributed)
    await w.pay('ETH', 'native', victim, parseEther('0.01'));
    await scanToFinal(w);
    expect(reconcileCli()).toMatchObject({ code: 0, report: { ok: true, unexplained: 0 } });
    const before = await ethOf(victim);
    const c = w.devnet.get('ETH').client;
    const hash = await c.sendTransaction({
      account: thief,
      to: stranger,
      value: parseEther('0.006'),
      chain: c.chain,
    });
    await c.waitForTransactionReceipt({ hash });
    await scanToFinal(w);
    const taken = before - (await ethOf(victim));
    expect(taken).toBeGreaterThan(parseEther('0.006'));

    const { code, report } = reconcileCli();
    expect(code).toBe(1);
    expect(report).toMatchObject({ ok: false, unexplained: 1 });
    expect(report.differences).toEqual([
      expect.objectContaining({
        status: 'unexplained',
        role: 'deposit',
        address: victim,
        symbol: 'ETH',
        orderId: 'c-3',
        difference: formatAmount(-taken, 18),
      }),
    ]);
  }, 120_000);

  it('adds USDT sent from the hot wallet by hand, and the gas that paid for it', async () => {
    const c = w.devnet.get('ETH');
    const hot = keys.hotWallet('ETH');
    const receipt = await transferToken(c.client, {
      from: privateKeyToAccount(`0x${hot.privateKey.toString('hex')}`),
      token: c.tokens.USDT.address,
      to: stranger,
      amount: 7n * USDT,
    });
    await scanToFinal(w);
    const gas = receipt.gasUsed * receipt.effectiveGasPrice;
    const { code, report } = reconcileCli();
    expect(code).toBe(1);
    expect(report.unexplained).toBe(3);
    const onHot = report.differences
      .filter((d: Line) => d.role === 'hot')
      .map((d: Line) => [d.address, d.symbol, d.status, d.difference]);
    expect(onHot.sort()).toEqual([
      [hot.address, 'ETH', 'unexplained', formatAmount(-gas, 18)],
      [hot.address, 'USDT', 'unexplained', '-7.00'],
    ]);
    expect(report.tokens.find((t: { symbol: string }) => t.symbol === 'USDT')?.unexplained).toBe('-7.00');
  }, 120_000);
});
