import { Hono } from 'hono';
import { supportedSymbols } from '../../services/manage-tokens.ts';
import type { HttpContext } from '../context.ts';
import { ok } from '../envelope.ts';
import { clientIp, clientKey } from '../middleware/client-ip.ts';
import { enforceRateLimit } from '../middleware/rate-limit.ts';

/** GET /v1/symbol/supportSymbols[?chain=&symbol=] → R<List<SupportSymbol>>; public, limited per client IP. */
export function supportSymbolsRoute(ctx: HttpContext) {
  return new Hono().get('/v1/symbol/supportSymbols', async (c) => {
    enforceRateLimit(ctx, 'supportSymbols', clientKey(clientIp(c, ctx.proxyTrust)));
    const chain = c.req.query('chain') || undefined;
    const symbol = c.req.query('symbol') || undefined;
    return ok(c, await supportedSymbols(ctx.deps, { chain, symbol }));
  });
}
