import type { RateLimitName } from '../config/schema.ts';
import type { RateLimiter } from '../lib/rate-limiter.ts';
import type { Deps } from '../services/deps.ts';
import type { MerchantDirectory } from '../services/merchant-directory.ts';
import type { ProxyTrust } from './middleware/client-ip.ts';

/**
 * What every route gets: the service dependencies, the merchant directory, the rate limiter of the
 * API's limits, the failed-authentication counter per client address, and which proxies to trust.
 */
export interface HttpContext {
  deps: Deps;
  directory: MerchantDirectory;
  limiter: RateLimiter;
  authFailures: RateLimiter;
  proxyTrust: ProxyTrust;
}

export type { RateLimitName };
