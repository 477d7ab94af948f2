/**
 * The receiver bench/webhooks.ts delivers to, in its own process: checks both signatures of every
 * request with node:crypto (as a merchant would), answers 200, and remembers the order of arrival.
 * Prints `{port}` on stdout when it listens; `GET /stats?path=/p` returns what it saw on path /p.
 * Secret: WEBHOOK_SECRET. Run: node --import tsx bench/webhook-receiver.ts
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const secret = process.env.WEBHOOK_SECRET ?? '';
const arrivals: { eventId: string; path: string; at: number }[] = [];
const bad = new Map<string, number>();

function equal(a: string, b: string) {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const server = createServer((req, res) => {
  if (req.method === 'GET') {
    res.setHeader('content-type', 'application/json');
    const path = new URL(req.url ?? '/', 'http://x').searchParams.get('path') ?? '';
    res.end(
      JSON.stringify({
        badSignatures: bad.get(path) ?? 0,
        arrivals: arrivals.filter((a) => a.path === path),
      }),
    );
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const parsed = JSON.parse(body) as { eventId: string; data: unknown; sign: string };
    const sign = createHmac('sha256', secret).update(JSON.stringify(parsed.data)).digest('hex');
    const id = String(req.headers['webhook-id']);
    const ts = String(req.headers['webhook-timestamp']);
    const v1 = createHmac('sha256', secret).update(`${id}.${ts}.${body}`).digest('base64');
    if (!equal(sign, parsed.sign) || !equal(`v1,${v1}`, String(req.headers['webhook-signature'])))
      bad.set(req.url ?? '', (bad.get(req.url ?? '') ?? 0) + 1);
    arrivals.push({ eventId: parsed.eventId, path: req.url ?? '', at: Date.now() });
    res.end('ok');
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(
    `${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`,
  );
});
process.on('SIGTERM', () => process.exit(0));
