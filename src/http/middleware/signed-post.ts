import type { Context } from 'hono';
import { MESSAGES, validationError } from '../../domain/errors.ts';
import { jsonDepthExceeds } from '../../lib/json-depth.ts';
import { rawJsonMember } from '../../lib/json-member.ts';
import {
  authenticatePost,
  consumeRequestNonce,
  type Envelope,
  parseEnvelope,
} from '../../services/authenticate.ts';
import type { Merchant } from '../../services/merchant-directory.ts';
import type { HttpContext, RateLimitName } from '../context.ts';
import { underFailedAuthLimit } from './failed-auth.ts';
import { enforceRateLimit } from './rate-limit.ts';
import { readBodyText } from './read-body.ts';

/**
 * Admits a signed POST under the client's failed-authentication limit (failed-auth.ts): refuses a
 * body nested deeper than `auth.maxJsonDepth` before parsing it, parses the envelope, checks the timestamp and the signature over `data`
 * (its exact bytes, or JSON.stringify of it), applies the merchant's rate limit, then records the
 * nonce. A request refused at any step changes nothing (a 429 does not burn the nonce).
 */
export function admitSignedPost(
  c: Context,
  ctx: HttpContext,
  limit: RateLimitName,
): Promise<{ merchant: Merchant; envelope: Envelope }> {
  return underFailedAuthLimit(c, ctx, async () => {
    const { maxBodyBytes, maxJsonDepth } = ctx.deps.config.auth;
    const text = await readBodyText(c, maxBodyBytes);
    if (jsonDepthExceeds(text, maxJsonDepth)) throw validationError(MESSAGES.bodyTooDeep);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw validationError(MESSAGES.bodyNotJson);
    }
    const envelope = parseEnvelope(body);
    const merchant = await authenticatePost(ctx.deps, ctx.directory, {
      envelope,
      rawData: rawJsonMember(text, 'data'),
      merchantId: c.req.header('x-merchant-id'),
    });
    enforceRateLimit(ctx, limit, merchant.id, merchant.id);
    await consumeRequestNonce(ctx.deps, merchant, envelope);
    c.set('merchantId' as never, merchant.id as never);
    return { merchant, envelope };
  });
}
