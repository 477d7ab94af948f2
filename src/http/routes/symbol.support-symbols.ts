import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { Hono } from 'hono';
import { supportedSymbols } from '../../services/manage-tokens.ts';
import type { HttpContext } from '../context.ts';
import { ok } from '../envelope.ts';
import { enforceRateLimit } from '../middleware/rate-limit.ts';

/** The client's IP: the socket's peer, or the first X-Forwarded-For hop when a trusted proxy is in front. */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** GET /v1/symbol/supportSymbols[?chain=&symbol=] → R<List<SupportSymbol>>; public, limited per client IP. */
export function supportSymbolsRoute(ctx: HttpContext) {
  return new Hono().get('/v1/symbol/supportSymbols', async (c) => {
    enforceRateLimit(ctx, 'supportSymbols', clientIp(c, ctx.deps.config.trustProxy));
    const chain = c.req.query('chain') || undefined;
    const symbol = c.req.query('symbol') || undefined;
    return ok(c, await supportedSymbols(ctx.deps, { chain, symbol }));
  });
}
