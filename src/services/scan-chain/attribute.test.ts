import { describe, expect, it } from 'vitest';
import type { OrderStatus } from '../../domain/order.ts';
import { type Attribution, attribute } from './attribute.ts';

const USDT = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const EXPIRES = 1_800_000_000_000; // epoch ms
const order = (status: OrderStatus = 'INIT', tokenContract: string | null = USDT) => ({
  id: 'ord_1',
  tokenContract,
  expiresAt: EXPIRES,
  status,
});
const transfer = (
  over: Partial<{ contract: string | null; timestamp: number; blockNum: number; success: boolean }> = {},
) => ({
  contract: USDT,
  timestamp: EXPIRES / 1000 - 60,
  blockNum: 100,
  success: true,
  ...over,
});
const credited = (status: Attribution['status']): Attribution => ({
  status,
  orderRef: 'ord_1',
  reason: null,
});
const left = (status: Attribution['status'], reason: Attribution['reason']): Attribution => ({
  status,
  orderRef: null,
  reason,
});

describe('attribute', () => {
  it.each([
    ['a payment in the order’s token, final', transfer(), order(), false, 100, credited('final')],
    ['the same, above the final height', transfer(), order(), false, 99, credited('pending')],
    [
      'a failed transaction, recorded but failed',
      transfer({ success: false }),
      order(),
      false,
      100,
      credited('failed'),
    ],
    [
      'the contract in another case',
      transfer({ contract: USDT.toLowerCase() }),
      order(),
      false,
      100,
      credited('final'),
    ],
    ['no order at the address', transfer(), undefined, false, 100, left('final', 'no-order')],
    [
      'another token',
      transfer({ contract: '0x00000000000000000000000000000000000000aa' }),
      order(),
      false,
      100,
      left('final', 'wrong-token'),
    ],
    [
      'a token paid to a native-coin order',
      transfer(),
      order('INIT', null),
      false,
      100,
      left('final', 'wrong-token'),
    ],
    [
      'the native coin to a native-coin order',
      transfer({ contract: null }),
      order('INIT', null),
      false,
      100,
      credited('final'),
    ],
    [
      'a block exactly at the expiry',
      transfer({ timestamp: EXPIRES / 1000 }),
      order(),
      false,
      100,
      credited('final'),
    ],
    [
      'a block one second after the expiry',
      transfer({ timestamp: EXPIRES / 1000 + 1 }),
      order(),
      false,
      100,
      left('final', 'late'),
    ],
    [
      'an order already final, a new transfer',
      transfer(),
      order('SUCCESS'),
      false,
      100,
      left('final', 'order-final'),
    ],
    [
      'an order already final, a transfer it was credited with',
      transfer(),
      order('SUCCESS'),
      true,
      100,
      credited('final'),
    ],
    [
      'an expired order, a new transfer',
      transfer(),
      order('EXPIRED'),
      false,
      100,
      left('final', 'order-final'),
    ],
    [
      'an order still pending confirmation',
      transfer(),
      order('PENDING_CONFIRMATION'),
      false,
      99,
      credited('pending'),
    ],
  ] as const)('%s', (_name, t, o, alreadyCredited, finalHeight, expected) => {
    expect(attribute(t, o, { alreadyCredited, finalHeight })).toEqual(expected);
  });
});
