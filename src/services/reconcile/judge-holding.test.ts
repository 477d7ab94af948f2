import { describe, expect, it } from 'vitest';
import type { Holding, Movement } from './holdings.ts';
import { judgeHolding } from './judge-holding.ts';

const mv = (amountBase: bigint, inFlight = false): Movement => ({
  kind: amountBase > 0n ? 'deposit' : 'payout',
  txHash: `0x${amountBase}`,
  orderId: null,
  amountBase,
  inFlight,
});
const holding = (role: 'deposit' | 'hot', movements: Movement[]): Holding => ({
  address: '0xabc',
  symbol: 'USDT',
  role,
  merchantId: null,
  orderId: null,
  movements,
});
const plain = { previousFloatBase: null, scannerBehind: false, accept: false };

describe('judgeHolding', () => {
  it('finds a deposit address that holds exactly its landed movements ok, and any other balance unexplained', () => {
    const h = holding('deposit', [mv(10n), mv(-4n)]);
    expect(judgeHolding(h, 6n, plain)).toMatchObject({ status: 'ok', expectedBase: 6n, differenceBase: 0n });
    expect(judgeHolding(h, 5n, plain)).toMatchObject({ status: 'unexplained', differenceBase: -1n });
    expect(judgeHolding(h, 7n, plain)).toMatchObject({ status: 'unexplained', differenceBase: 1n });
  });

  it('calls a difference within what unconfirmed transactions would move in flight, and one beyond it unexplained', () => {
    const h = holding('deposit', [mv(10n), mv(-10n, true)]);
    expect(judgeHolding(h, 0n, plain).status).toBe('in_flight');
    expect(judgeHolding(h, 10n, plain).status).toBe('ok');
    expect(judgeHolding(h, 1n, plain).status).toBe('in_flight');
    expect(judgeHolding(h, 11n, plain).status).toBe('unexplained');
  });

  it('blames a surplus on a deposit address on unscanned blocks only while the scanner trails the chain', () => {
    const h = holding('deposit', [mv(10n)]);
    expect(judgeHolding(h, 15n, { ...plain, scannerBehind: true }).status).toBe('unscanned');
    expect(judgeHolding(h, 5n, { ...plain, scannerBehind: true }).status).toBe('unexplained');
  });

  it('lets a hot wallet float grow (the operator funds it) but not shrink, unless the operator accepts it', () => {
    const h = holding('hot', [mv(-30n)]);
    expect(judgeHolding(h, 70n, plain)).toMatchObject({
      status: 'ok',
      floatBase: 100n,
      previousFloatBase: null,
    });
    expect(judgeHolding(h, 170n, { ...plain, previousFloatBase: 100n })).toMatchObject({
      status: 'ok',
      floatBase: 200n,
    });
    expect(judgeHolding(h, 63n, { ...plain, previousFloatBase: 100n })).toMatchObject({
      status: 'unexplained',
      expectedBase: 70n,
      differenceBase: -7n,
      floatBase: 93n,
    });
    expect(judgeHolding(h, 63n, { ...plain, previousFloatBase: 100n, accept: true }).status).toBe('ok');
  });

  it('never lets an unknown fee pass as in flight on a hot wallet', () => {
    const h = holding('hot', [mv(-5n, true), { ...mv(0n), kind: 'fee', feeUnknown: true }]);
    expect(judgeHolding(h, 95n, { ...plain, previousFloatBase: 100n }).status).toBe('unexplained');
    expect(
      judgeHolding(holding('hot', [mv(-5n, true)]), 95n, { ...plain, previousFloatBase: 100n }).status,
    ).toBe('in_flight');
  });
});
