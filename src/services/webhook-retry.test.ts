import { describe, expect, it } from 'vitest';
import { decideOutcome, retryDeadline, retryDelay } from './webhook-retry.ts';

const settings = { retryForSeconds: 3 * 24 * 3600, retryBaseMs: 60_000, retryMaxDelayMs: 12 * 3600_000 };
const MIN = 60_000;

describe('webhook retry schedule', () => {
  it('doubles the ceiling after each failure, with jitter between half and all of it, capped at 12 h', () => {
    const ceilings = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 720, 720].map((m) => m * MIN);
    ceilings.forEach((c, i) => {
      expect(retryDelay(i + 1, settings, () => 0)).toBe(c / 2);
      expect(retryDelay(i + 1, settings, () => 1)).toBe(c);
    });
    expect(retryDelay(50, settings, () => 1)).toBe(720 * MIN);
  });

  it('counts any 2xx as delivered and 410 as failed at once', () => {
    const base = { failures: 1, now: 0, deadline: 1000 };
    for (const code of [200, 201, 204, 299])
      expect(decideOutcome({ ...base, statusCode: code }, settings)).toEqual({ status: 'delivered' });
    expect(decideOutcome({ ...base, statusCode: 410 }, settings)).toEqual({ status: 'failed' });
  });

  it('retries everything else, never later than the deadline, and fails once the deadline has passed', () => {
    const deadline = 10 * MIN;
    for (const statusCode of [null, 199, 301, 400, 404, 429, 500, 503]) {
      expect(decideOutcome({ statusCode, failures: 1, now: 0, deadline }, settings, () => 1)).toEqual({
        status: 'pending',
        nextAttemptAt: MIN,
      });
    }
    expect(decideOutcome({ statusCode: 500, failures: 9, now: 0, deadline }, settings, () => 1)).toEqual({
      status: 'pending',
      nextAttemptAt: deadline,
    });
    expect(decideOutcome({ statusCode: 500, failures: 9, now: deadline, deadline }, settings)).toEqual({
      status: 'failed',
    });
  });

  it('takes the deadline from a resend when there is one, else three days after the transition', () => {
    expect(retryDeadline({ createdAt: 1000, retryUntil: null }, settings)).toBe(1000 + 3 * 24 * 3600_000);
    expect(retryDeadline({ createdAt: 1000, retryUntil: 5000 }, settings)).toBe(5000);
  });
});
