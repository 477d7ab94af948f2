import { bootstrap } from '../bootstrap.ts';
import { listWebhooks } from '../services/list-webhooks.ts';
import { resendWebhook } from '../services/resend-webhook.ts';
import { sendTestWebhook } from '../services/send-test-webhook.ts';
import { commandLogger, printJson, printTable, UsageError } from './output.ts';

const USAGE =
  'webhooks list [--order ID] [--merchant ID] [--failed] [--json] | resend EVENT_ID | test --merchant ID';

/**
 * `kassa webhooks list|resend|test`. `list` prints events newest first (a table, or JSON with each
 * event's attempt history); `resend` queues an event again for the worker; `test` sends a signed
 * WEBHOOK_TEST event to the merchant's callback URL now, prints the answer, and exits 1 when it was
 * not a 2xx. Only `test` needs KASSA_MASTER_KEY. No secret or signed body is ever printed.
 */
export async function webhooksCommand(
  args: string[],
  flags: Record<string, string | boolean | undefined>,
): Promise<void> {
  const [sub, id] = args;
  if (sub !== 'list' && sub !== 'resend' && sub !== 'test') throw new UsageError(USAGE);
  if (sub === 'resend' && !id) throw new UsageError('webhooks resend EVENT_ID');
  if (sub === 'test' && typeof flags.merchant !== 'string')
    throw new UsageError('webhooks test --merchant ID');
  const rt = await bootstrap({
    configFile: flags.config as string | undefined,
    need: { masterKey: sub === 'test' },
    logTo: 2,
    logger: commandLogger(flags),
  });
  try {
    switch (sub) {
      case 'list': {
        const json = flags.json === true;
        const rows = await listWebhooks(rt, {
          order: flags.order as string | undefined,
          merchantId: flags.merchant as string | undefined,
          failed: flags.failed === true,
          history: json,
        });
        if (json) printJson(rows);
        else
          printTable(
            rows.map((r) => ({
              eventId: r.eventId,
              orderId: r.orderId ?? '-',
              notifyType: r.notifyType,
              status: r.status,
              attempts: r.attempts,
              created: r.createdAt,
              next: r.nextAttemptAt ?? '',
              lastError: r.lastError ?? '',
            })),
          );
        return;
      }
      case 'resend': {
        const r = await resendWebhook(rt, id as string);
        process.stdout.write(`${JSON.stringify(r)}\n`);
        process.stderr.write(
          `event ${r.eventId} (was ${r.previousStatus}) queued; the worker sends it now\n`,
        );
        return;
      }
      case 'test': {
        const r = await sendTestWebhook(rt, flags.merchant as string);
        process.stdout.write(`${JSON.stringify(r)}\n`);
        if (!r.delivered) {
          process.stderr.write(`test webhook not delivered: ${r.error ?? `HTTP ${r.statusCode}`}\n`);
          process.exitCode = 1;
        }
        return;
      }
    }
  } finally {
    await rt.close();
  }
}
