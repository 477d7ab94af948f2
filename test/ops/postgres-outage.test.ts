import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminApp } from '../../src/http/admin-app.ts';
import { type KassaBehindProxy, kassaBehindProxy } from '../helpers/kassa-behind-proxy.ts';

// PostgreSQL out of reach (the server down, the network cut): the API answers 503 "busy" and
// readiness says not ready, as SQLite's held lock does; nothing is answered as an internal error,
// and once the server is back the same process serves again.

let k: KassaBehindProxy;

beforeAll(async () => {
  k = await kassaBehindProxy();
});

afterAll(async () => {
  await k?.close();
});

describe('PostgreSQL out of reach', () => {
  it('answers 503 busy (retry) instead of an internal error, and readiness says not ready', async () => {
    expect((await k.createCollection()).body.code).toBe(200);
    await k.proxy.cut();
    expect(await k.createCollection()).toEqual({
      status: 503,
      body: { code: 503, msg: 'The service is busy. Please retry.', data: null },
    });
    const ready = await createAdminApp(k.rt).request('/readyz');
    expect(ready.status).toBe(503);
    const detail = (await ready.json()) as { database: { writable: boolean; error: string } };
    expect(detail.database.writable).toBe(false);
  });

  it('serves again once the server is back, from the same process', async () => {
    await k.proxy.restore();
    expect((await k.createCollection()).body.code).toBe(200);
    expect((await createAdminApp(k.rt).request('/readyz')).status).not.toBe(500);
  });
});
