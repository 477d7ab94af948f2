import { createServer, type ServerResponse } from 'node:http';
import { verifyWebhook } from '../../test/helpers/webhook-receiver.ts';

/**
 * The merchants' webhook receiver in the soak: checks both signatures of every delivery, and while
 * the business runs fails now and then (a 500, no answer, a dropped connection); after
 * `stopFailing()` it always answers 200.
 */

/** One delivery as the receiver saw it, and how it answered. */
export interface Arrival {
  eventId: string;
  orderId: string;
  merchantId: string;
  notifyType: string;
  answered: number | 'hang' | 'drop';
  at: number;
}

export interface SoakReceiver {
  url: string;
  arrivals: Arrival[];
  /** Webhook secret by merchant id. */
  secrets: Map<string, string>;
  counts: { received: number; badSignature: number; failed500: number; hung: number; dropped: number };
  stopFailing(): void;
  close(): Promise<void>;
}

/** Starts the receiver on a free port of 127.0.0.1; `random` decides when it fails. */
export function startReceiver(random: () => number): Promise<SoakReceiver> {
  const arrivals: Arrival[] = [];
  const secrets = new Map<string, string>();
  const hanging = new Set<ServerResponse>();
  const counts = { received: 0, badSignature: 0, failed500: 0, hung: 0, dropped: 0 };
  let failing = true;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      counts.received++;
      const text = Buffer.concat(chunks).toString('utf8');
      const merchantId = String(req.headers['x-merchant-id'] ?? '');
      let parsed: ReturnType<typeof verifyWebhook> | null = null;
      for (const [id, secret] of secrets) {
        if (merchantId && id !== merchantId) continue;
        try {
          parsed = verifyWebhook(secret, {
            method: req.method ?? '',
            path: req.url ?? '',
            headers: req.headers,
            body: text,
            at: Date.now(),
          });
          break;
        } catch {
          // another merchant's secret, or a bad signature
        }
      }
      if (!parsed) {
        counts.badSignature++;
        res.writeHead(400).end();
        return;
      }
      const roll = random();
      const answer: Arrival['answered'] = !failing
        ? 200
        : roll < 0.08
          ? 500
          : roll < 0.1
            ? 'hang'
            : roll < 0.12
              ? 'drop'
              : 200;
      arrivals.push({
        eventId: parsed.eventId,
        orderId: String(parsed.data.orderId),
        merchantId: merchantId || '?',
        notifyType: parsed.notifyType,
        answered: answer,
        at: Date.now(),
      });
      if (answer === 'hang') {
        counts.hung++;
        hanging.add(res);
      } else if (answer === 'drop') {
        counts.dropped++;
        req.socket.destroy();
      } else {
        if (answer === 500) counts.failed500++;
        res.writeHead(answer).end(answer === 200 ? 'ok' : 'try later');
      }
    });
  });
  return new Promise<SoakReceiver>((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({
        url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`,
        arrivals,
        secrets,
        counts,
        stopFailing: () => {
          failing = false;
        },
        close: () => {
          for (const r of hanging) r.destroy();
          server.closeAllConnections();
          return new Promise((done) => server.close(() => done()));
        },
      });
    }),
  );
}
