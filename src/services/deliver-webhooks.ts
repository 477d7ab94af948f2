import type { WebhookEvent } from '../db/store.ts';

import { type AttemptResult, NO_CALLBACK_ERROR, performWebhookAttempt } from './attempt-webhook.ts';
import type { Deps } from './deps.ts';
import { MerchantDirectory } from './merchant-directory.ts';

/** What one run did. */
export interface DeliverySummary {
  delivered: number;
  retrying: number;
  failed: number;
}

/** Delivers due webhook events; `run` returns when nothing is due and nothing is in flight. */
export interface WebhookDeliverer {
  run(signal?: AbortSignal): Promise<DeliverySummary>;
}

/**
 * Slack added to `timeoutMs` for the lease of a claimed event: a worker that dies mid-request leaves
 * the event leased, and it is due again (delivered at least once) when the lease runs out.
 */
export const LEASE_GRACE_MS = 1000;

/**
 * Builds the webhook deliverer of a worker. A run claims due events (oldest first, one at a time per
 * order, so an order's events arrive in order) and sends them concurrently: at most
 * `webhooks.concurrency` requests in flight, at most `webhooks.perMerchantConcurrency` to one
 * merchant, each bounded by `webhooks.timeoutMs`. A freed slot is refilled at once, and new events
 * are looked for every `pollIntervalMs` while requests are in flight, so one slow receiver never
 * holds up the others. Each round writes the attempts that finished and claims the next events in
 * one transaction (answers that arrive together share it). Aborting `signal` stops claiming; requests in flight finish (within their
 * timeout) and are recorded before `run` resolves. Needs the master key (`deps.box`) to open
 * webhook secrets.
 */
export function createWebhookDeliverer(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'logger' | 'box'>,
  options: { directory?: MerchantDirectory; random?: () => number } = {},
): WebhookDeliverer {
  const directory = options.directory ?? new MerchantDirectory(deps);
  const random = options.random ?? Math.random;
  const log = deps.logger.child({ part: 'webhooks' });
  const warnedNoCallback = new Set<string>();

  function report(event: WebhookEvent, r: AttemptResult, summary: DeliverySummary) {
    const fields = {
      eventId: event.id,
      merchantId: event.merchantId,
      notifyType: event.notifyType,
      attempt: event.attempts + 1,
      target: r.target,
      statusCode: r.attempt.statusCode,
      latencyMs: r.attempt.latencyMs,
      error: r.attempt.error,
    };
    if (r.outcome.status === 'delivered') {
      summary.delivered++;
      log.debug(fields, 'webhook delivered');
    } else if (r.outcome.status === 'failed') {
      summary.failed++;
      log.error(fields, 'webhook failed for good; `kassa webhooks resend` sends it again');
    } else {
      summary.retrying++;
      const next = { ...fields, nextAttemptAt: new Date(r.outcome.nextAttemptAt).toISOString() };
      if (r.attempt.error !== NO_CALLBACK_ERROR) log.warn(next, 'webhook attempt failed; will retry');
      else if (!warnedNoCallback.has(event.merchantId)) {
        warnedNoCallback.add(event.merchantId);
        log.warn(next, 'merchant has no callback URL; its webhooks wait (retried on the normal schedule)');
      }
    }
  }

  async function run(signal?: AbortSignal): Promise<DeliverySummary> {
    const summary: DeliverySummary = { delivered: 0, retrying: 0, failed: 0 };
    const settings = deps.config.webhooks;
    const inFlight = new Set<string>();
    const perMerchant = new Map<string, number>();
    let woken = false;
    let wake: (() => void) | null = null;
    const poke = () => {
      woken = true;
      wake?.();
    };

    /** Finished attempts waiting to be written with the next claim. */
    let finished: { event: WebhookEvent; result: AttemptResult }[] = [];

    function start(event: WebhookEvent) {
      inFlight.add(event.id);
      perMerchant.set(event.merchantId, (perMerchant.get(event.merchantId) ?? 0) + 1);
      void (async () => {
        try {
          const merchant = await directory.byId(event.merchantId);
          const result = await performWebhookAttempt(deps, event, merchant, random);
          finished.push({ event, result }); // after the await: `finished` is swapped by each round
        } catch (err) {
          // A missing master key or an unreadable merchant list gets here: the lease runs out and the
          // event is tried again.
          log.error({ eventId: event.id, err }, 'webhook attempt could not be made');
        } finally {
          inFlight.delete(event.id);
          const left = (perMerchant.get(event.merchantId) ?? 1) - 1;
          if (left > 0) perMerchant.set(event.merchantId, left);
          else perMerchant.delete(event.merchantId);
          poke();
        }
      })();
    }

    /** Writes the finished attempts and claims as many due events as there are free slots, in one transaction. */
    async function settleAndFill(claim: boolean): Promise<boolean> {
      const settle = finished;
      finished = [];
      const free = claim ? settings.concurrency - inFlight.size : 0;
      const now = deps.clock.now();
      const saturated = [...perMerchant]
        .filter(([, n]) => n >= settings.perMerchantConcurrency)
        .map(([id]) => id);
      const taking = new Map<string, number>();
      let written: Awaited<ReturnType<Deps['db']['settleAndClaimWebhookEvents']>>;
      try {
        written = await deps.db.settleAndClaimWebhookEvents({
          settle: settle.map((f) => f.result),
          claim: {
            now,
            limit: Math.max(0, free),
            scan: Math.max(16, free * 2),
            leaseUntil: now + settings.timeoutMs + LEASE_GRACE_MS,
            excludeMerchantIds: saturated,
            accept: (e) => {
              if (inFlight.has(e.id)) return false;
              const used = (perMerchant.get(e.merchantId) ?? 0) + (taking.get(e.merchantId) ?? 0);
              if (used >= settings.perMerchantConcurrency) return false;
              taking.set(e.merchantId, (taking.get(e.merchantId) ?? 0) + 1);
              return true;
            },
          },
        });
      } catch (err) {
        // The database refused (busy, closing). The unrecorded attempts' events stay leased and are
        // sent again when the lease ends (at least once); claiming resumes on the next run.
        log.error({ err, unrecorded: settle.length }, 'could not record webhook attempts or claim more');
        return false;
      }
      settle.forEach((f) => {
        report(f.event, f.result, summary);
      });
      for (const e of written.claimed) start(e);
      return true;
    }

    let claiming = true;
    signal?.addEventListener('abort', poke);
    try {
      for (;;) {
        woken = false;
        if (signal?.aborted) claiming = false;
        if (!(await settleAndFill(claiming))) claiming = false;
        if (inFlight.size === 0 && finished.length === 0) break;
        if (woken) continue;
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(timer);
            wake = null;
            resolve();
          };
          const timer = setTimeout(done, settings.pollIntervalMs);
          wake = done;
        });
        // let answers that already arrived finish first, so one claim serves several freed slots
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } finally {
      signal?.removeEventListener('abort', poke);
    }
    return summary;
  }

  return { run };
}

/** One run of a fresh deliverer: delivers what is due now and waits for the answers. */
export function deliverWebhooks(
  deps: Pick<Deps, 'db' | 'clock' | 'config' | 'logger' | 'box'>,
  options: { signal?: AbortSignal; directory?: MerchantDirectory; random?: () => number } = {},
): Promise<DeliverySummary> {
  return createWebhookDeliverer(deps, options).run(options.signal);
}
