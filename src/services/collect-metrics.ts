import { type ChainProgress, chainProgress } from './chain-progress.ts';
import type { Deps } from './deps.ts';
import { PrometheusText, type Sample } from './prometheus-text.ts';
import { sweepMetrics } from './sweep-metrics.ts';
import { WORKER_LEASE } from './worker-lease.ts';

/** Running attempt totals per database: attempt rows are only appended, so each scrape reads the new ones. */
const attemptTotals = new WeakMap<object, { lastId: number; attempts: number; delivered: number }>();

function perChain(progress: ChainProgress[], pick: (p: ChainProgress) => number | null): Sample[] {
  const out: Sample[] = [];
  for (const p of progress) {
    const value = pick(p);
    if (value !== null) out.push({ labels: { chain: p.chain }, value });
  }
  return out;
}

/**
 * The Prometheus text of /metrics: orders by chain, type and status; payout queue and payouts held
 * for the operator per chain; scanner height, final height, head and lag per chain
 * (chain-progress.ts); reorganisations found per chain and the depth of the last one; RPC requests and errors
 * per chain and redacted URL (this process's adapters); webhook events by status and delivery
 * attempts; whether a worker holds the worker lease; process memory. Reads only. Costs one pass over the orders and webhook_events indexes.
 */
export async function collectMetrics(
  deps: Pick<Deps, 'config' | 'db' | 'clock' | 'health' | 'adapters'>,
): Promise<string> {
  const now = deps.clock.now();
  const text = new PrometheusText();
  text.family('kassa_info', 'gauge', 'Always 1; labels describe this installation.', [
    { labels: { network: deps.config.network }, value: 1 },
  ]);

  const counts = await deps.db.orderCounts();
  text.family(
    'kassa_orders',
    'gauge',
    'Orders by chain, type (COLLECTION, PAYOUT) and status.',
    counts.map((c) => ({ labels: { chain: c.chain, type: c.type, status: c.status }, value: c.n })),
  );

  const progress = await chainProgress(deps);
  const queueChains = new Set<string>(progress.map((p) => p.chain));
  const queued = new Map<string, number>();
  for (const c of counts) {
    if (c.type !== 'PAYOUT' || c.status !== 'INIT') continue;
    queued.set(c.chain, c.n);
    queueChains.add(c.chain);
  }
  text.family(
    'kassa_payout_queue',
    'gauge',
    'Payouts accepted and not yet signed and sent (status INIT), per chain.',
    [...queueChains].map((chain) => ({ labels: { chain }, value: queued.get(chain) ?? 0 })),
  );
  const held = await deps.db.heldPayoutCounts();
  const heldChains = new Set([...queueChains, ...held.map((h) => h.chain)]);
  text.family(
    'kassa_payouts_held',
    'gauge',
    'Payouts waiting for the operator, per chain and kind: stuck (their spend slot was used by a transaction Kassa did not record: check the chain, then `kassa payouts retry` or `fail`) and approval (`kassa payouts approve` or `reject`).',
    [...heldChains].flatMap((chain) =>
      (['stuck', 'approval'] as const).map((kind) => ({
        labels: { chain, kind },
        value: held.find((h) => h.chain === chain && h.kind === kind)?.n ?? 0,
      })),
    ),
  );
  await sweepMetrics(deps, text);
  text.family(
    'kassa_payout_queue_oldest_seconds',
    'gauge',
    'Age of the oldest payout still waiting to be sent, per chain (absent when none waits).',
    (await deps.db.oldestQueuedPayouts()).map((p) => ({
      labels: { chain: p.chain },
      value: Math.max(0, (now - p.createdAt) / 1000),
    })),
  );

  const run = await deps.db.lastReconciliation();
  if (run) {
    const perChain = reconciledChains(run.id, run.report);
    text
      .family(
        'kassa_reconcile_last_run_timestamp_seconds',
        'gauge',
        "When the last reconciliation (`kassa reconcile` or the worker's) finished, Unix seconds.",
        [{ value: run.finishedAt / 1000 }],
      )
      .family(
        'kassa_reconcile_unexplained',
        'gauge',
        'Address and token pairs whose balance on chain nothing recorded explains, at the last reconciliation, per chain: alert on > 0.',
        perChain.map((c) => ({ labels: { chain: c.chain }, value: c.unexplained })),
      )
      .family(
        'kassa_reconcile_chain_checked',
        'gauge',
        '1 when the last reconciliation could read the chain, 0 when it could not (see its report).',
        perChain.map((c) => ({ labels: { chain: c.chain }, value: c.checked ? 1 : 0 })),
      )
      .family(
        'kassa_reconcile_addresses',
        'gauge',
        'Addresses (deposit addresses and hot wallets) the last reconciliation read.',
        [{ value: run.addresses }],
      );
  }

  text
    .family(
      'kassa_chain_ready',
      'gauge',
      '1 when the chain scanner is within its lag budget (as /readyz judges it), else 0.',
      perChain(progress, (p) => (p.ready ? 1 : 0)),
    )
    .family(
      'kassa_scanner_height',
      'gauge',
      'Last block whose transfers are all stored (the scan checkpoint).',
      perChain(progress, (p) => p.scannedTo),
    )
    .family(
      'kassa_scanner_final_height',
      'gauge',
      'Highest block known final at the last scan.',
      perChain(progress, (p) => p.finalHeight),
    )
    .family(
      'kassa_chain_head_height',
      'gauge',
      "Chain head at the scanner's last pass (only where the worker runs in this process).",
      perChain(progress, (p) => p.head),
    )
    .family(
      'kassa_scanner_lag_blocks',
      'gauge',
      'Blocks between the head and the checkpoint (only where the worker runs in this process).',
      perChain(progress, (p) => p.lagBlocks),
    )
    .family(
      'kassa_scanner_lag_seconds',
      'gauge',
      'How far the scan trails the chain: 0 at the head, else the age of the last scanned block.',
      perChain(progress, (p) => p.lagSeconds),
    )
    .family(
      'kassa_scanner_last_scan_age_seconds',
      'gauge',
      'Seconds since the scanner last finished a pass or advanced its checkpoint.',
      perChain(progress, (p) => p.lastScanAgeSeconds),
    )
    .family(
      'kassa_scanner_lag_budget_seconds',
      'gauge',
      'The lag budget /readyz holds each chain to.',
      perChain(progress, (p) => p.budgetSeconds),
    );

  const reorgs = await deps.db.reorgStats();
  text
    .family(
      'kassa_chain_reorgs_total',
      'counter',
      "Chain reorganisations the scanner found under its checkpoint (since the chain's first scan).",
      reorgs.map((r) => ({ labels: { chain: r.chain }, value: r.count })),
    )
    .family(
      'kassa_chain_last_reorg_depth_blocks',
      'gauge',
      'Blocks the last reorganisation replaced among those the scanner had read (absent before the first).',
      reorgs.flatMap((r) =>
        r.lastDepth === null ? [] : [{ labels: { chain: r.chain }, value: r.lastDepth }],
      ),
    );

  const requests: Sample[] = [];
  const errors: Sample[] = [];
  for (const [chain, adapter] of deps.adapters) {
    for (const s of adapter.rpcStatistics?.() ?? []) {
      requests.push({ labels: { chain, url: s.url }, value: s.requests });
      errors.push({ labels: { chain, url: s.url }, value: s.errors });
    }
  }
  text
    .family(
      'kassa_rpc_requests_total',
      'counter',
      'RPC requests this process sent, per chain and URL (credentials redacted).',
      requests,
    )
    .family(
      'kassa_rpc_errors_total',
      'counter',
      'RPC requests that failed transiently (timeout, network, 429, 5xx) and were retried or failed over.',
      errors,
    );

  const events = await deps.db.webhookEventCounts();
  const byStatus = new Map(events.byStatus.map((s) => [s.status, s.n]));
  text.family(
    'kassa_webhook_events',
    'gauge',
    'Webhook events by status: pending (queued or retrying), delivered, failed (gave up; resend by hand), skipped (an event XPay never sends, for a merchant in XPay mode).',
    ['pending', 'delivered', 'failed', 'skipped'].map((status) => ({
      labels: { status },
      value: byStatus.get(status) ?? 0,
    })),
  );
  text.family(
    'kassa_webhook_oldest_pending_seconds',
    'gauge',
    'Age of the oldest webhook event not delivered yet (0 when none is pending).',
    [{ value: events.oldestPendingAt === null ? 0 : Math.max(0, (now - events.oldestPendingAt) / 1000) }],
  );
  const totals = attemptTotals.get(deps.db) ?? { lastId: 0, attempts: 0, delivered: 0 };
  const fresh = await deps.db.webhookAttemptsSince(totals.lastId);
  totals.lastId = fresh.lastId;
  totals.attempts += fresh.attempts;
  totals.delivered += fresh.delivered;
  attemptTotals.set(deps.db, totals);
  text.family(
    'kassa_webhook_attempts_total',
    'counter',
    'Webhook delivery attempts by result: delivered (a 2xx answer) or failed (anything else).',
    [
      { labels: { result: 'delivered' }, value: totals.delivered },
      { labels: { result: 'failed' }, value: totals.attempts - totals.delivered },
    ],
  );

  const lease = await deps.db.findWorkerLease(WORKER_LEASE);
  const live = lease !== null && lease.expiresAt > now;
  text.family(
    'kassa_worker_lease_live',
    'gauge',
    '1 while a worker process holds the worker lease and it has not run out; 0 when no worker runs the jobs.',
    [{ value: live ? 1 : 0 }],
  );
  text.family(
    'kassa_worker_lease_held_seconds',
    'gauge',
    'How long the worker lease has been held by its current holder (absent when none); back to 0 at a take-over.',
    live && lease ? [{ value: Math.max(0, (now - lease.acquiredAt) / 1000) }] : [],
  );

  const memory = process.memoryUsage();
  text
    .family('process_resident_memory_bytes', 'gauge', 'Resident set size in bytes.', [{ value: memory.rss }])
    .family('nodejs_heap_size_total_bytes', 'gauge', 'V8 heap size in bytes.', [{ value: memory.heapTotal }])
    .family('nodejs_heap_size_used_bytes', 'gauge', 'V8 heap in use in bytes.', [{ value: memory.heapUsed }])
    .family('nodejs_external_memory_bytes', 'gauge', 'Memory of C++ objects bound to JavaScript, in bytes.', [
      { value: memory.external },
    ])
    .family(
      'process_start_time_seconds',
      'gauge',
      'Start time of the process since the Unix epoch, in seconds.',
      [{ value: Math.round(Date.now() / 1000 - process.uptime()) }],
    );
  return text.toString();
}

let parsedRun: { id: string; chains: { chain: string; unexplained: number; checked: boolean }[] } | null =
  null;

/** Per chain of a stored reconciliation report: unexplained differences and whether it was read (parsed once per run). */
function reconciledChains(
  id: string,
  report: string,
): { chain: string; unexplained: number; checked: boolean }[] {
  if (parsedRun?.id === id) return parsedRun.chains;
  const r = JSON.parse(report) as {
    chains: { chain: string; error?: string }[];
    differences: { chain: string; status: string }[];
  };
  const chains = r.chains.map((c) => ({
    chain: c.chain,
    checked: c.error === undefined,
    unexplained: r.differences.filter((d) => d.chain === c.chain && d.status === 'unexplained').length,
  }));
  parsedRun = { id, chains };
  return chains;
}
