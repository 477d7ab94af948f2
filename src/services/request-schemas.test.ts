import { describe, expect, it } from 'vitest';
import { AppError, MESSAGES } from '../domain/errors.ts';
import { getBalanceData, orderRequestSchema, parseRequest } from './request-schemas.ts';

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError && error.code === 'validation') return error.detail ?? '';
    throw error;
  }
  throw new Error('accepted');
}

const v3Collection = orderRequestSchema('collection', 'V3');
const v2Collection = orderRequestSchema('collection', 'V2');
const v3Payout = orderRequestSchema('payout', 'V3');
const ok = { amount: '5', symbol: 'USDT', chain: 'TRON', orderId: 'A-1' };

describe('request schemas', () => {
  it.each([
    ['nothing at all', {}, MESSAGES.amountBlank],
    ['data that is not an object', ['5'], MESSAGES.amountBlank],
    ['amount and symbol missing', { chain: 'TRON' }, MESSAGES.amountBlank],
    ['amount of spaces', { ...ok, amount: '   ' }, MESSAGES.amountBlank],
    ['symbol missing, amount malformed', { amount: 'x', chain: 'TRON' }, MESSAGES.symbolBlank],
    ['chain unknown', { ...ok, chain: 'DOGE' }, MESSAGES.chainBlank],
    ['chain in lowercase', { ...ok, chain: 'tron' }, MESSAGES.chainBlank],
    ['V3 without orderId, uid zero', { ...ok, orderId: undefined, uid: '0' }, MESSAGES.orderIdBlank],
    ['orderId of spaces', { ...ok, orderId: '  ' }, MESSAGES.orderIdBlank],
    ['uid zero', { ...ok, uid: '0' }, MESSAGES.uidZero],
    [
      'orderId too long, amount malformed',
      { ...ok, orderId: 'x'.repeat(65), amount: '1e3' },
      MESSAGES.orderIdTooLong,
    ],
    ['amount with a sign', { ...ok, amount: '-1' }, MESSAGES.amountInvalid],
    ['amount surrounded by spaces', { ...ok, amount: ' 5' }, MESSAGES.amountInvalid],
    ['amount as an object', { ...ok, amount: { v: 5 } }, 'The amount must be a string.'],
    ['symbol as a boolean', { ...ok, symbol: true }, 'The symbol must be a string.'],
  ])('refuses %s with the first message of the error table', (_, data, message) => {
    expect(refusal(() => parseRequest(v3Collection, data))).toBe(message);
  });

  it('reads numbers as their decimal text and trims text fields, but not the amount', () => {
    expect(parseRequest(v3Collection, { amount: 10.5, symbol: ' usdt ', chain: 'ETH', orderId: 42 })).toEqual(
      {
        amount: '10.5',
        symbol: 'usdt',
        chain: 'ETH',
        orderId: '42',
      },
    );
  });

  it('holds V2 merchants to a uid and V3 merchants to an orderId', () => {
    expect(refusal(() => parseRequest(v2Collection, { ...ok, orderId: undefined }))).toBe(MESSAGES.uidBlank);
    expect(parseRequest(v2Collection, { ...ok, orderId: undefined, uid: 'u-1' })).toMatchObject({
      uid: 'u-1',
    });
    expect(refusal(() => parseRequest(v3Collection, { ...ok, orderId: null }))).toBe(MESSAGES.orderIdBlank);
  });

  it('asks a payout for its receiveAddress after the ids and before the lengths', () => {
    expect(refusal(() => parseRequest(v3Payout, { ...ok, orderId: undefined }))).toBe(MESSAGES.orderIdBlank);
    expect(refusal(() => parseRequest(v3Payout, { ...ok, orderId: 'x'.repeat(65) }))).toBe(
      MESSAGES.receiveAddressBlank,
    );
    expect(parseRequest(v3Payout, { ...ok, receiveAddress: ' T9 ' })).toMatchObject({ receiveAddress: 'T9' });
  });

  it('filters balances by an optional known chain', () => {
    expect(parseRequest(getBalanceData, {})).toEqual({});
    expect(parseRequest(getBalanceData, { chain: '', symbol: 'usdt' })).toEqual({
      chain: '',
      symbol: 'usdt',
    });
    expect(refusal(() => parseRequest(getBalanceData, { chain: 'DOGE' }))).toBe(MESSAGES.chainUnsupported);
  });
});
