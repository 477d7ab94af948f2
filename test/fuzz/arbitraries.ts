import fc from 'fast-check';

/**
 * The values the endpoint fuzzing draws request fields from: well-formed ones, near misses and
 * junk (issues 13 and 14).
 */

/** A counter for fresh order ids and nonces, shared by every arbitrary of a test file. */
let fresh = 0;
/** The next fresh number (`F-<n>` order ids, nonces that were never used). */
export const nextFresh = () => ++fresh;

export const anyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '0', '-1', 'null', '\u0000', '../../etc/passwd', '%00', '<script>', '\u202e'),
);
export const amount = fc.oneof(
  fc.constantFrom(
    '5',
    '10.00',
    '0.000001',
    '1.0000001',
    ' 5',
    '5 ',
    '1e3',
    '-1',
    '0',
    '0.0',
    '.5',
    '5.',
    '+5',
  ),
  fc.constantFrom('123456789012345678901234567890', '1'.repeat(200), '0x10', '٥', '５'),
  fc.integer().map(String),
  fc.double({ noNaN: true }),
  fc.integer(),
  anyText,
);
export const chain = fc.oneof(
  fc.constantFrom('TRON', 'ETH', 'BSC', 'POLYGON', 'AVAX_C_CHAIN', 'SUI', 'eth', 'DOGE', ''),
  anyText,
);
export const symbol = fc.oneof(
  fc.constantFrom('USDT', 'usdc', 'USDC', 'TRX', 'ETH', 'SUI', 'BNB', 'X'),
  anyText,
);
export const receiveAddress = fc.oneof(
  fc.constantFrom(
    'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    `0x${'ab'.repeat(32)}`,
    'T000000000000000000000000000000000',
  ),
  anyText,
);
export const orderId = fc.oneof(
  fc.constantFrom('K-1', 'K-2', 'KP-1', 'new-1', 'x'.repeat(65)),
  anyText,
  fc.uuid(),
);
const fieldValue = (base: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 6, arbitrary: base },
    { weight: 1, arbitrary: fc.constantFrom(null, true, 0, [], {}) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
const randomData = fc.record(
  {
    amount: fieldValue(amount),
    symbol: fieldValue(symbol),
    chain: fieldValue(chain),
    orderId: fieldValue(orderId),
    uid: fieldValue(fc.oneof(fc.constantFrom('u1', '0', 0, 7), anyText)),
    receiveAddress: fieldValue(receiveAddress),
    extra: fc.jsonValue({ maxDepth: 4 }),
  },
  { requiredKeys: [] },
);
/** Orders that are valid for both endpoints (chain, token and receiving address agree). */
const VALID = [
  { chain: 'TRON', symbol: 'USDT', receiveAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
  { chain: 'ETH', symbol: 'USDC', receiveAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
  { chain: 'BSC', symbol: 'USDT', receiveAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' },
  { chain: 'SUI', symbol: 'SUI', receiveAddress: `0x${'ab'.repeat(32)}` },
];
const validData = fc
  .record({
    base: fc.constantFrom(...VALID),
    amount: fc.constantFrom('5', '10.00', '0.5', '1000000'),
    uid: fc.option(fc.constantFrom('u1', 'u2')),
    reuse: fc.boolean(),
  })
  .map(({ base, amount, uid, reuse }) => ({
    ...base,
    amount,
    // A fresh orderId, or one seen before (idempotent replay, or a 409 when the parameters differ).
    orderId: reuse ? `F-${fresh % 5}` : `F-${++fresh}`,
    ...(uid ? { uid } : {}),
  }));
/** A valid order with one field replaced by anything. */
const mutatedData = fc
  .tuple(
    validData,
    fc.constantFrom('amount', 'symbol', 'chain', 'orderId', 'uid', 'receiveAddress'),
    fc.jsonValue({ maxDepth: 2 }),
  )
  .map(([d, key, value]) => ({ ...d, [key]: value }));
/** Order data: a valid order, one with a field replaced by anything, or random fields. */
export const data = fc.oneof(
  { weight: 3, arbitrary: validData },
  { weight: 2, arbitrary: mutatedData },
  { weight: 3, arbitrary: randomData },
);

/** Text a real HTTP header can carry (Node's parser drops a request with control characters). */
const headerSafe = (text: string) => text.replace(/[^\x20-\x7e\x80-\xff]/g, '');
/** The address the request comes from (the socket's). */
export const clientIp = fc.oneof(fc.constant('127.0.0.1'), fc.ipV4(), fc.ipV6());
/** An X-Forwarded-For header of addresses and junk, or none. */
export const forwardedFor = fc.option(
  fc.array(fc.oneof(fc.ipV4(), fc.ipV6(), anyText), { maxLength: 4 }).map((a) => headerSafe(a.join(', '))),
);
