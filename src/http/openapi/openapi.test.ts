import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Harness, makeHarness } from '../../../test/helpers/harness.ts';
import { checkoutLinkSign, signData } from '../../../test/helpers/signing.ts';
import { javaSdkQuery } from '../../../test/helpers/xpay-sdk.ts';
import { MESSAGES } from '../../domain/errors.ts';
import { adjustLedger } from '../../services/manage-ledger.ts';
import { createMerchant, type MerchantCreated } from '../../services/manage-merchants.ts';
import { createApp } from '../app.ts';
import { openApiDocument } from './document.ts';
import {
  checkoutState,
  collectionCreated,
  errorEnvelope,
  health,
  merchantBalance,
  notifyOrder,
  orderStatusOnly,
  payinOrder,
  payoutCreated,
  readiness,
  success,
  supportSymbol,
  xpayMerchantAssets,
  xpayReply,
} from './resources.ts';

/**
 * The OpenAPI document against the app it describes: a standard validator accepts it, its paths
 * are exactly the app's routes, every answer the app really gives fits the published schema, and a
 * client generated from it by a common generator (@hey-api/openapi-ts) compiles and is typed.
 */
const root = resolve(import.meta.dirname, '../../..');
const work = mkdtempSync(join(tmpdir(), 'kassa-openapi-'));
let h: Harness;
let m: MerchantCreated;
let xpay: MerchantCreated;

beforeAll(async () => {
  h = await makeHarness();
  m = await h.merchant('V3');
  xpay = await createMerchant(h.rt, { kind: 'V3', compat: 'xpay' }); // before the app's first request
});
afterAll(async () => {
  await h?.close();
  rmSync(work, { recursive: true, force: true });
});

/** The app's routes as `METHOD /path/{param}`, middleware left out. */
function routesOf(app: { routes: { method: string; path: string }[] }): string[] {
  return [
    ...new Set(
      app.routes
        .filter((r) => r.method !== 'ALL')
        .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z]+)/g, '{$1}')}`),
    ),
  ].sort();
}

function documented(doc: ReturnType<typeof openApiDocument>): string[] {
  return Object.entries(doc.paths)
    .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}

async function strict<T extends z.ZodType>(schema: T, res: Response): Promise<z.output<T>> {
  const json = await res.json();
  const parsed = schema.safeParse(json);
  expect(parsed.error?.issues ?? [], JSON.stringify(json)).toEqual([]);
  return parsed.data as z.output<T>;
}

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 by a standard validator, and served at /openapi.json', async () => {
    const res = await h.app.request('/openapi.json');
    expect(res.status).toBe(200);
    const served = await res.json();
    expect(served).toEqual(JSON.parse(JSON.stringify(openApiDocument(h.rt.config))));
    expect(served.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(served))).resolves.toBeTruthy();
  });

  it('describes every route the public app serves, and nothing else', async () => {
    expect(documented(openApiDocument(h.rt.config))).toEqual(routesOf(h.app));
    const withToken = { ...h.rt.config, ops: { ...h.rt.config.ops, metricsToken: 'm'.repeat(32) } };
    const app = createApp({ ...h.rt, config: withToken });
    expect(documented(openApiDocument(withToken))).toEqual(routesOf(app));
    expect(routesOf(app)).toContain('GET /metrics');
  });

  it('lists the refusals with the exact messages the endpoints give', async () => {
    const doc = openApiDocument(h.rt.config);
    type Responses = Record<number, { content: Record<string, { examples?: object }> } | undefined>;
    const messages = (path: string, method: string, status: number) => {
      const op = doc.paths[path]?.[method] as { responses: Responses } | undefined;
      const examples = op?.responses[status]?.content['application/json']?.examples ?? {};
      return Object.values(examples).map((e) => (e as { value: { msg: string } }).value.msg);
    };
    const refused = async (res: Response, status: number) => {
      expect(res.status).toBe(status);
      return (await strict(errorEnvelope, res)).msg;
    };
    const blank = await refused(await h.post('/v1/order/createCollection', m, { symbol: 'USDT' }), 400);
    expect(messages('/v1/order/createCollection', 'post', 400)).toContain(blank);
    const address = await refused(
      await h.post('/v1/order/createPayout', m, {
        amount: '1',
        symbol: 'USDT',
        chain: 'TRON',
        orderId: 'P-bad',
        receiveAddress: 'nope',
      }),
      400,
    );
    expect(address).toBe(MESSAGES.receiveAddressError);
    expect(messages('/v1/order/createPayout', 'post', 400)).toContain(address);
    const unsigned = await refused(
      await h.post('/v1/order/createCollection', m, { amount: '1' }, { sign: 'ab'.repeat(32) }),
      401,
    );
    expect(messages('/v1/order/createCollection', 'post', 401)).toContain(unsigned);
    const missing = await refused(await h.getSigned('/v1/order/status/nope', m, 'nope'), 404);
    expect(messages('/v1/order/status/{orderId}', 'get', 404)).toContain(missing);
  });

  it('publishes schemas that every real answer fits', async () => {
    const created = await strict(
      success(collectionCreated),
      await h.post('/v1/order/createCollection', m, {
        amount: '10.5',
        symbol: 'USDT',
        chain: 'TRON',
        orderId: 'O-1',
      }),
    );
    await adjustLedger(h.rt, {
      merchantId: m.merchantId,
      chain: 'TRON',
      symbol: 'USDT',
      amount: '100',
      reason: 'test',
    });
    await strict(
      success(payoutCreated),
      await h.post('/v1/order/createPayout', m, {
        amount: '1.5',
        symbol: 'USDT',
        chain: 'TRON',
        orderId: 'P-1',
        receiveAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      }),
    );
    const balances = await strict(
      success(merchantBalance.array()),
      await h.post('/v1/merchant/getBalance', m, {}),
    );
    expect(balances.data.find((b) => b.chain === 'TRON' && b.symbol === 'USDT')?.frozenBalance).toBe('1.50');
    for (const id of ['O-1', 'P-1'])
      await strict(success(notifyOrder), await h.getSigned(`/v1/order/status/${id}`, m, id));
    await strict(success(payinOrder), await h.getSigned('/v1/order/pay', m, 'O-1', { orderId: 'O-1' }));
    await strict(
      success(orderStatusOnly),
      await h.getSigned('/v1/order/getOrderStatus', m, 'O-1', { orderId: 'O-1' }),
    );
    const link = new URL(created.data.paymentUrl);
    expect(link.searchParams.get('sign')).toBe(checkoutLinkSign(m.token, 'O-1'));
    await strict(success(checkoutState), await h.app.request(`/checkout/state${link.search}`));
    await strict(success(supportSymbol.array()), await h.app.request('/v1/symbol/supportSymbols'));
    await strict(health, await h.app.request('/healthz'));
    await strict(readiness, await h.app.request('/readyz'));
    expect(signData(m.token, 'O-1')).not.toBe(link.searchParams.get('sign'));

    // the GETs only XPay has, as a merchant in XPay mode calls them with XPay's Java SDK
    const xpayGet = (path: string, fields: Record<string, string>) =>
      h.app.request(
        `${path}?${javaSdkQuery(xpay.webhookSecret, fields, { timestamp: Math.floor(h.clock.now() / 1000), nonce: crypto.randomUUID() })}`,
        { headers: { 'X-API-TOKEN': xpay.token } },
      );
    const assets = await strict(
      xpayReply(xpayMerchantAssets),
      await xpayGet('/v1/merchant/getBalance', { symbol: 'USDT' }),
    );
    expect(assets).toMatchObject({ code: 200, data: { symbol: 'USDT', balance: '0.00' } });
    const noAddress = await strict(
      xpayReply(z.null()),
      await xpayGet('/v1/merchant/getCryptoAddress', { chain: 'TRON', symbol: 'USDT', uid: 'u-1' }),
    );
    expect(noAddress).toEqual({ code: 500, msg: 'Address acquisition is not supported.', data: null });
  });

  it('gives a client generated by @hey-api/openapi-ts that compiles and is typed by it', () => {
    const spec = join(work, 'openapi.json');
    writeFileSync(spec, JSON.stringify(openApiDocument(h.rt.config)));
    const out = join(work, 'generated');
    const gen = spawnSync(
      process.execPath,
      [join(root, 'node_modules/@hey-api/openapi-ts/bin/run.js'), '-i', spec, '-o', out, '--silent'],
      { encoding: 'utf8', cwd: work },
    );
    expect(gen.status, gen.stdout + gen.stderr).toBe(0);
    writeFileSync(
      join(work, 'use.ts'),
      [
        "import { createCollection, getOrder } from './generated/sdk.gen';",
        'export async function use() {',
        "  const created = await createCollection({ body: { sign: 's', timestamp: 1, nonce: 'n', data: { amount: '1', symbol: 'USDT', chain: 'TRON', orderId: 'A' } } });",
        '  const address: string | undefined = created.data?.data.address;',
        "  const order = await getOrder({ path: { orderId: 'A' } });",
        "  const status: 'INIT' | 'PENDING' | 'PENDING_CONFIRMATION' | 'SUCCESS' | 'EXPIRED' | 'FAILED' | undefined = order.data?.data.status;",
        '  // @ts-expect-error: DOGE is not a chain the document allows',
        "  await createCollection({ body: { sign: 's', timestamp: 1, nonce: 'n', data: { amount: '1', symbol: 'X', chain: 'DOGE' } } });",
        '  return { address, status };',
        '}',
      ].join('\n'),
    );
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2022', 'DOM'],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: [],
        },
        include: ['use.ts', 'generated'],
      }),
    );
    const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', work], {
      encoding: 'utf8',
    });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });
});

describe('the reference page at /docs', () => {
  it('shows every endpoint with its refusals and examples, from this origin only', async () => {
    const res = await h.app.request('/docs');
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'nonce-[^']+'/);
    const html = await res.text();
    for (const path of Object.keys(openApiDocument(h.rt.config).paths))
      expect(html).toContain(`<code>${path}</code>`);
    expect(html).toContain(MESSAGES.amountBlank);
    expect(html).toContain('openssl dgst -sha256 -hmac');
    expect(html).toContain('await kassa.createCollection(');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
  });
});
