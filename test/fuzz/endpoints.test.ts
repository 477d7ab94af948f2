import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../src/domain/errors.ts';
import { ERROR_TABLE } from '../../src/http/errors.ts';
import { adjustLedger } from '../../src/services/manage-ledger.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { type Harness, makeHarness } from '../helpers/harness.ts';
import { checkoutLinkSign, signData } from '../helpers/signing.ts';

/**
 * Property-based fuzzing of every endpoint (issue 14): random and mutated envelopes, headers, query
 * strings and bodies, in process on a real migrated database. For every request:
 * - never a 5xx (the database and the process are healthy throughout);
 * - the API answers with a valid R<T> envelope whose code is the status;
 * - a refusal carries its status's message from the error table (a 400 one of the validation
 *   messages);
 * - a refused request writes nothing: no order, address, event or payout attempt; and a nonce only
 *   when it was authenticated and then refused for its data (a replay of it must stay refused).
 * Fixed seeds and bounded runs, so a failure reproduces and the suite's time stays bounded.
 */
const SEED = 1405;
const RUNS = Number(process.env.KASSA_FUZZ_RUNS ?? 150);

let h: Harness;
let m: MerchantCreated;
let other: MerchantCreated;
let v2: MerchantCreated;

beforeAll(async () => {
  h = await makeHarness({
    // Generous limits, so that most requests reach the code behind them (a separate block fuzzes
    // with the default limits).
    rateLimits: Object.fromEntries(
      [
        'createCollection',
        'createPayout',
        'getBalance',
        'status',
        'pay',
        'getOrderStatus',
        'supportSymbols',
      ].map((n) => [n, { limit: 1_000_000, windowSeconds: 1 }]),
    ),
    auth: { failedAttempts: { limit: 1_000_000, windowSeconds: 1 } },
    trustProxy: ['127.0.0.0/8'],
  });
  m = await h.merchant('V3');
  other = await h.merchant('V3');
  v2 = await h.merchant('V2');
  for (const [orderId, chain, symbol] of [
    ['K-1', 'TRON', 'USDT'],
    ['K-2', 'ETH', 'USDC'],
    ['K-3', 'SUI', 'USDC'],
  ] as const) {
    const res = await h.post('/v1/order/createCollection', m, { amount: '5', symbol, chain, orderId });
    expect(res.status).toBe(200);
  }
  // the merchant's balance funds its payouts (the ledger of issue 11)
  await adjustLedger(h.rt, {
    merchantId: m.merchantId,
    chain: 'TRON',
    symbol: 'USDT',
    amount: '1000',
    reason: 'fuzz',
  });
  const payout = await h.post('/v1/order/createPayout', m, {
    amount: '1',
    symbol: 'USDT',
    chain: 'TRON',
    orderId: 'KP-1',
    receiveAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  });
  expect(payout.status).toBe(200);
});
/** Statuses seen per path, printed with KASSA_FUZZ_STATS=1 (to see which code the runs reach). */
const seen = new Map<string, Map<string, number>>();
afterAll(() => {
  h?.close();
  if (process.env.KASSA_FUZZ_STATS)
    for (const [path, statuses] of seen) console.log(path, Object.fromEntries(statuses));
});

// ---- what a refusal may say ----------------------------------------------------------------------

const FIELD_TYPE_MESSAGES = ['amount', 'symbol', 'chain', 'orderId', 'uid', 'receiveAddress'].map(
  (f) => `The ${f} must be a string.`,
);
const VALIDATION = new Set<string>([
  ...Object.values(MESSAGES),
  ...FIELD_TYPE_MESSAGES,
  ERROR_TABLE.validation.msg,
]);
/** What a payout refused for money may say (issue 11: the ledger, limits, allowlist, the hot wallet). */
const PAYOUT_REFUSALS = [
  /^Insufficient funds\. balance: \d+(\.\d+)? Total required: \d+(\.\d+)? \(\d+(\.\d+)? amount \+ \d+(\.\d+)? fee\)\.$/,
  ...[
    ERROR_TABLE.insufficient_balance.msg,
    MESSAGES.payoutAboveLimit,
    MESSAGES.payoutAboveDailyLimit,
    MESSAGES.receiveAddressNotAllowed,
  ].map((m) => new RegExp(`^${m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)),
];
/** Validation messages about the envelope itself: sent before the signature is checked. */
const ENVELOPE_MESSAGES = new Set<string>([
  MESSAGES.bodyNotJson,
  MESSAGES.bodyTooDeep,
  MESSAGES.signBlank,
  MESSAGES.timestampBlank,
  MESSAGES.nonceBlank,
  MESSAGES.dataBlank,
]);
const byStatus = new Map<number, Set<string>>();
for (const { status, msg } of Object.values(ERROR_TABLE)) {
  if (!byStatus.has(status)) byStatus.set(status, new Set());
  byStatus.get(status)?.add(msg);
}

// ---- what a request may write ------------------------------------------------------------------

function counts() {
  const one = (sql: string) => (h.db.$client.prepare(sql).get() as { n: number }).n;
  return {
    orders: one('SELECT count(*) AS n FROM orders'),
    addresses: one('SELECT count(*) AS n FROM deposit_addresses WHERE order_ref IS NOT NULL'),
    events: one('SELECT count(*) AS n FROM webhook_events'),
    payoutAttempts: one('SELECT count(*) AS n FROM payout_attempts'),
    merchants: one('SELECT count(*) AS n FROM merchants'),
    tokens: one('SELECT count(*) AS n FROM tokens'),
    nonces: one('SELECT count(*) AS n FROM request_nonces'),
  };
}

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

/** Sends one request and checks the properties every answer must have. */
async function exchange(
  path: string,
  init: RequestInit,
  options: { envelope: boolean; ip?: string; writes?: 'checked' | 'unchecked' },
): Promise<Answer> {
  const before = counts();
  const res = await h.app.request(path, init, {
    incoming: { socket: { remoteAddress: options.ip ?? '127.0.0.1' } },
  });
  const text = await res.text();
  const answer = { status: res.status, contentType: res.headers.get('content-type') ?? '', text };
  const where = `${init.method ?? 'GET'} ${path} → ${res.status} ${text.slice(0, 200)}`;
  const route = path.split('?')[0]?.replace(/^(\/v1\/order\/status\/).*/, '$1…') ?? path;
  const tally = seen.get(route) ?? new Map<string, number>();
  seen.set(route, tally);
  const label = `${res.status} ${res.status === 200 ? '' : text.slice(0, 60)}`;
  tally.set(label, (tally.get(label) ?? 0) + 1);
  expect(res.status, where).toBeLessThan(500);
  expect(byStatus.has(res.status) || res.status === 200, where).toBe(true);
  if (res.status === 429) expect(Number(res.headers.get('retry-after')), where).toBeGreaterThanOrEqual(1);
  let msg: string | null = null;
  if (options.envelope) {
    expect(answer.contentType, where).toContain('application/json');
    const body = JSON.parse(text) as { code: unknown; msg: unknown; data: unknown };
    expect(Object.keys(body).sort(), where).toEqual(['code', 'data', 'msg']);
    expect(body.code, where).toBe(res.status);
    expect(typeof body.msg, where).toBe('string');
    msg = body.msg as string;
    if (res.status === 200) expect(body.msg, where).toBe('success');
    else {
      expect(body.data, where).toBeNull();
      if (res.status === 400) expect(VALIDATION.has(msg), where).toBe(true);
      else if (res.status === 422)
        expect(
          PAYOUT_REFUSALS.some((r) => r.test(msg as string)),
          where,
        ).toBe(true);
      else expect(byStatus.get(res.status)?.has(msg), where).toBe(true);
    }
  }
  if (res.status !== 200 && options.writes !== 'unchecked') {
    const after = counts();
    const spentNonce = after.nonces - before.nonces;
    // Only an authenticated request refused for its data (not its envelope) spends its nonce.
    const dataRefusal = [400, 409, 422].includes(res.status) && msg !== null && !ENVELOPE_MESSAGES.has(msg);
    expect(spentNonce, where).toBeGreaterThanOrEqual(0);
    expect(spentNonce, where).toBeLessThanOrEqual(dataRefusal ? 1 : 0);
    expect({ ...after, nonces: 0 }, where).toEqual({ ...before, nonces: 0 });
  }
  return answer;
}

// ---- generators ----------------------------------------------------------------------------------

const anyText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '0', '-1', 'null', '\u0000', '../../etc/passwd', '%00', '<script>', '\u202e'),
);
const amount = fc.oneof(
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
const chain = fc.oneof(
  fc.constantFrom('TRON', 'ETH', 'BSC', 'POLYGON', 'AVAX_C_CHAIN', 'SUI', 'eth', 'DOGE', ''),
  anyText,
);
const symbol = fc.oneof(fc.constantFrom('USDT', 'usdc', 'USDC', 'TRX', 'ETH', 'SUI', 'BNB', 'X'), anyText);
const receiveAddress = fc.oneof(
  fc.constantFrom(
    'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    `0x${'ab'.repeat(32)}`,
    'T000000000000000000000000000000000',
  ),
  anyText,
);
const orderId = fc.oneof(fc.constantFrom('K-1', 'K-2', 'KP-1', 'new-1', 'x'.repeat(65)), anyText, fc.uuid());
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
let fresh = 0;
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
const data = fc.oneof(
  { weight: 3, arbitrary: validData },
  { weight: 2, arbitrary: mutatedData },
  { weight: 3, arbitrary: randomData },
);

type SignMode = 'valid' | 'other-merchant' | 'random-hex' | 'garbage' | 'missing' | 'uppercase' | 'stringify';
const signMode = fc.constantFrom<SignMode>(
  'valid',
  'valid',
  'valid',
  'other-merchant',
  'random-hex',
  'garbage',
  'missing',
  'uppercase',
  'stringify',
);

/** A POST envelope built from parts, each of which may be mutated. */
const envelopeText = fc
  .record({
    data: fc.oneof({ weight: 8, arbitrary: data }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) }),
    who: fc.constantFrom('v3', 'v2'),
    sign: signMode,
    timestamp: fc.oneof(
      { weight: 6, arbitrary: fc.constant<'now'>('now') },
      {
        weight: 1,
        arbitrary: fc.constantFrom<'stale' | 'future' | 'string' | 'float' | 'missing'>(
          'stale',
          'future',
          'string',
          'float',
          'missing',
        ),
      },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
    ),
    nonce: fc.oneof(
      { weight: 6, arbitrary: fc.uuid().map((u) => `${u}-${++fresh}`) },
      { weight: 1, arbitrary: fc.constantFrom<unknown>('', 'n'.repeat(129), 7, null, 'K-reused') },
      { weight: 1, arbitrary: anyText },
    ),
    pretty: fc.boolean(),
    extraTop: fc.option(
      fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    ),
    merchantHeader: fc.constantFrom<'none' | 'right' | 'other' | 'junk'>(
      'none',
      'none',
      'right',
      'other',
      'junk',
    ),
  })
  .map((p) => {
    const who = p.who === 'v2' ? v2 : m;
    const dataText = JSON.stringify(p.data, null, p.pretty ? 2 : undefined) ?? 'null';
    const hmac = (token: string, text: string) => createHmac('sha256', token).update(text).digest('hex');
    const sign: unknown = {
      valid: hmac(who.token, dataText),
      'other-merchant': hmac(other.token, dataText),
      'random-hex': 'ab'.repeat(32),
      garbage: 'not a sign',
      missing: undefined,
      uppercase: hmac(who.token, dataText).toUpperCase(),
      stringify: hmac(who.token, JSON.stringify(p.data) ?? 'null'),
    }[p.sign];
    const now = Math.floor(h.clock.now() / 1000);
    const timestamp =
      p.timestamp === 'now'
        ? now
        : p.timestamp === 'stale'
          ? now - 10_000
          : p.timestamp === 'future'
            ? now + 10_000
            : p.timestamp === 'string'
              ? String(now)
              : p.timestamp === 'float'
                ? now + 0.5
                : p.timestamp === 'missing'
                  ? undefined
                  : p.timestamp;
    const parts: string[] = [];
    if (sign !== undefined) parts.push(`"sign":${JSON.stringify(sign)}`);
    if (timestamp !== undefined) parts.push(`"timestamp":${JSON.stringify(timestamp)}`);
    if (p.nonce !== undefined) parts.push(`"nonce":${JSON.stringify(p.nonce)}`);
    parts.push(`"data":${dataText}`);
    for (const [k, v] of Object.entries(p.extraTop ?? {}))
      parts.push(`${JSON.stringify(k)}:${JSON.stringify(v)}`);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (p.merchantHeader === 'right') headers['x-merchant-id'] = who.merchantId;
    if (p.merchantHeader === 'other') headers['x-merchant-id'] = other.merchantId;
    if (p.merchantHeader === 'junk') headers['x-merchant-id'] = 'mch_nobody';
    return { body: `{${parts.join(',')}}`, headers };
  });

/** Bodies that are not well-formed envelopes at all. */
const rawBody = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.jsonValue({ maxDepth: 5 }).map((v) => JSON.stringify(v) ?? ''),
  fc.integer({ min: 65, max: 20_000 }).map((n) => `{"data":${'['.repeat(n)}${']'.repeat(n)}}`),
  // A complete envelope (bogus sign) whose data nests deep: what reaches the signature check.
  fc
    .tuple(fc.integer({ min: 65, max: 20_000 }), fc.constantFrom('[', '{"a":'))
    .map(
      ([n, open]) =>
        `{"sign":"${'ab'.repeat(32)}","timestamp":${Math.floor(h.clock.now() / 1000)},"nonce":"deep","data":{"x":${open.repeat(n)}1${(open === '[' ? ']' : '}').repeat(n)}}}`,
    ),
  fc.constantFrom('', '{', '{"sign":', 'null', '[]', '"x"', '{"data":{}}', `{"a":"${'x'.repeat(70_000)}"}`),
  envelopeText.chain((e) =>
    fc.integer({ min: 0, max: Math.max(0, e.body.length - 1) }).map((cut) => e.body.slice(0, cut)),
  ),
);

/** Text a real HTTP header can carry (Node's parser drops a request with control characters). */
const headerSafe = (text: string) => text.replace(/[^\x20-\x7e\x80-\xff]/g, '');
const clientIp = fc.oneof(fc.constant('127.0.0.1'), fc.ipV4(), fc.ipV6());
const forwardedFor = fc.option(
  fc.array(fc.oneof(fc.ipV4(), fc.ipV6(), anyText), { maxLength: 4 }).map((a) => headerSafe(a.join(', '))),
);

// ---- the properties ------------------------------------------------------------------------------

describe('fuzzing the signed POST endpoints', () => {
  for (const path of ['/v1/order/createCollection', '/v1/order/createPayout', '/v1/merchant/getBalance']) {
    it(`${path}: mutated envelopes never get a 5xx, always an envelope, write nothing when refused`, async () => {
      await fc.assert(
        fc.asyncProperty(envelopeText, clientIp, forwardedFor, async (e, ip, xff) => {
          const headers = xff === null ? e.headers : { ...e.headers, 'x-forwarded-for': xff };
          await exchange(path, { method: 'POST', headers, body: e.body }, { envelope: true, ip });
        }),
        { seed: SEED, numRuns: RUNS },
      );
    });

    it(`${path}: bodies that are not envelopes are refused cleanly`, async () => {
      await fc.assert(
        fc.asyncProperty(
          rawBody,
          fc.constantFrom('application/json', 'text/plain', ''),
          async (body, type) => {
            const headers: Record<string, string> = type ? { 'content-type': type } : {};
            const answer = await exchange(path, { method: 'POST', headers, body }, { envelope: true });
            expect(answer.status).not.toBe(200);
          },
        ),
        { seed: SEED, numRuns: RUNS },
      );
    });
  }
});

/** A sign for the GET endpoints: the merchant's, the checkout link's, another merchant's, or junk. */
const querySign = (id: string) =>
  fc.oneof(
    fc.constant(signData(m.token, id)),
    fc.constant(checkoutLinkSign(m.token, id)),
    fc.constant(signData(other.token, id)),
    fc.constant(signData(m.token, id).toUpperCase()),
    fc.constantFrom('', 'zz', 'ab'.repeat(32), 'ab'.repeat(33)),
    anyText,
  );
const queryCase = orderId.chain((id) =>
  fc.record({
    orderId: fc.option(fc.constant(id)),
    sign: fc.option(querySign(typeof id === 'string' ? id : '')),
    extra: fc.option(fc.dictionary(fc.string({ maxLength: 8 }), anyText, { maxKeys: 3 })),
    lang: fc.option(fc.oneof(fc.constantFrom('en', 'zh', 'xx'), anyText)),
    merchantHeader: fc.option(fc.constantFrom(m.merchantId, other.merchantId, 'mch_nobody', '')),
  }),
);

function query(q: {
  orderId: string | null;
  sign: string | null;
  extra: Record<string, string> | null;
  lang: string | null;
}): string {
  const params = new URLSearchParams();
  if (q.orderId !== null) params.set('orderId', q.orderId);
  if (q.sign !== null) params.set('sign', q.sign);
  if (q.lang !== null) params.set('lang', q.lang);
  for (const [k, v] of Object.entries(q.extra ?? {})) params.append(k, v);
  return params.toString();
}

describe('fuzzing the GET endpoints', () => {
  for (const path of ['/v1/order/pay', '/v1/order/getOrderStatus', '/checkout/state']) {
    it(`${path}: random queries, signs and headers`, async () => {
      await fc.assert(
        fc.asyncProperty(queryCase, clientIp, async (q, ip) => {
          const headers: Record<string, string> =
            q.merchantHeader === null ? {} : { 'x-merchant-id': q.merchantHeader };
          await exchange(`${path}?${query(q)}`, { headers }, { envelope: true, ip });
        }),
        { seed: SEED, numRuns: RUNS },
      );
    });
  }

  it('/v1/order/status/{orderId}: random ids (encoded as they come), signs and queries', async () => {
    await fc.assert(
      fc.asyncProperty(queryCase, async (q) => {
        const id = q.orderId ?? '';
        const rest = query({ ...q, orderId: null });
        await exchange(`/v1/order/status/${encodeURIComponent(id)}?${rest}`, {}, { envelope: true });
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('/checkout: random queries answer an HTML page, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(queryCase, async (q) => {
        const answer = await exchange(`/checkout?${query(q)}`, {}, { envelope: false });
        expect(answer.contentType).toContain('text/html');
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('/v1/symbol/supportSymbols: random filters and client addresses', async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(chain), fc.option(symbol), clientIp, forwardedFor, async (c, s, ip, xff) => {
        const params = new URLSearchParams();
        if (typeof c === 'string') params.set('chain', c);
        if (typeof s === 'string') params.set('symbol', s);
        const headers: Record<string, string> = xff === null ? {} : { 'x-forwarded-for': xff };
        const answer = await exchange(
          `/v1/symbol/supportSymbols?${params}`,
          { headers },
          { envelope: true, ip },
        );
        expect(answer.status).toBe(200);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe('fuzzing paths and methods', () => {
  it('any method on any path under the API answers an envelope, never a 5xx', async () => {
    const path = fc.oneof(
      fc.constantFrom(
        '/v1/order/createCollection',
        '/v1/order/createPayout',
        '/v1/merchant/getBalance',
        '/v1/order/pay',
        '/v1/order/getOrderStatus',
        '/v1/order/status/K-1',
        '/v1/symbol/supportSymbols',
        '/v1/order/status/',
        '/v1/order/status/%ZZ',
        '/v1/order/status/a%2Fb',
        '/v1/',
        '/v1/order/createCollection/',
        '/V1/ORDER/PAY',
      ),
      fc.webPath().map((p) => `/v1${p}`),
      fc.array(fc.webSegment(), { maxLength: 4 }).map((s) => `/v1/order/${s.join('/')}`),
    );
    await fc.assert(
      fc.asyncProperty(
        path,
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        async (p, method) => {
          const init: RequestInit = { method };
          if (method !== 'GET') init.body = '{}';
          await exchange(p, init, { envelope: true });
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

describe('fuzzing with the default limits', () => {
  let d: Harness;
  let dm: MerchantCreated;
  beforeAll(async () => {
    d = await makeHarness();
    dm = await d.merchant('V3');
  });
  afterAll(() => d?.close());

  it('a storm of mixed requests from a few addresses only ever meets the table: 200, 4xx, 429', async () => {
    const request = fc.record({
      ip: fc.constantFrom('198.51.100.1', '198.51.100.2', '2001:db8::1'),
      kind: fc.constantFrom('post-good', 'post-bad', 'pay', 'status', 'symbols'),
      n: fc.nat(1000),
      advanceMs: fc.constantFrom(0, 0, 0, 10, 500, 5000),
    });
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        sent++;
        d.clock.advance(r.advanceMs);
        const env = { incoming: { socket: { remoteAddress: r.ip } } };
        const data = { amount: '1', symbol: 'USDT', chain: 'TRON', orderId: `D-${r.n}` };
        const ts = Math.floor(d.clock.now() / 1000);
        const body = {
          'post-good': `{"sign":"${signData(dm.token, JSON.stringify(data))}","timestamp":${ts},"nonce":"${r.n}-${sent}","data":${JSON.stringify(data)}}`,
          'post-bad': `{"sign":"${'ab'.repeat(32)}","timestamp":${ts},"nonce":"x","data":${JSON.stringify(data)}}`,
        };
        const res =
          r.kind === 'post-good' || r.kind === 'post-bad'
            ? await d.app.request('/v1/order/createCollection', { method: 'POST', body: body[r.kind] }, env)
            : r.kind === 'symbols'
              ? await d.app.request('/v1/symbol/supportSymbols', {}, env)
              : await d.app.request(
                  r.kind === 'pay'
                    ? `/v1/order/pay?orderId=D-${r.n}&sign=${signData(dm.token, `D-${r.n}`)}`
                    : `/v1/order/status/D-${r.n}?sign=${signData(dm.token, `D-${r.n}`)}`,
                  {},
                  env,
                );
        expect([200, 401, 404, 409, 429]).toContain(res.status);
        const b = (await res.json()) as { code: number; msg: string };
        expect(b.code).toBe(res.status);
        if (res.status !== 200) expect(byStatus.get(res.status)?.has(b.msg)).toBe(true);
      }),
      { seed: SEED, numRuns: RUNS * 2 },
    );
  });
});
