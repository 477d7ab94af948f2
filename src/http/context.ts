import type { RateLimitName } from '../config/schema.ts';
import type { RateLimiter } from '../lib/rate-limiter.ts';
import type { Deps } from '../services/deps.ts';
import type { MerchantDirectory } from '../services/merchant-directory.ts';

/** What every route gets: the service dependencies, the merchant directory and the rate limiter. */
export interface HttpContext {
  deps: Deps;
  directory: MerchantDirectory;
  limiter: RateLimiter;
}

export type { RateLimitName };
