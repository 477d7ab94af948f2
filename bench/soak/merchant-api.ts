import { sleep } from '../../src/lib/backoff.ts';
import type { MerchantCreated } from '../../src/services/manage-merchants.ts';
import { envelope } from '../../test/helpers/signing.ts';

/**
 * A merchant's signed POST to Kassa on `port`, retried while Kassa is down or busy (503, 429) for up
 * to two minutes; returns the envelope Kassa answered.
 */
export async function post<T>(
  port: number,
  path: string,
  m: MerchantCreated,
  data: unknown,
): Promise<{ code: number; msg: string; data: T }> {
  const end = Date.now() + 120_000;
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-merchant-id': m.merchantId },
        body: envelope(m.token, data),
      });
      const body = (await res.json()) as { code: number; msg: string; data: T };
      if (body.code !== 503 && body.code !== 429) return body;
    } catch {
      // Kassa is being restarted
    }
    if (Date.now() > end) throw new Error(`${path} did not answer for 2 minutes`);
    await sleep(250);
  }
}
