/**
 * @kassa/client: a typed client for the Kassa payment gateway. No runtime dependencies: fetch and
 * Web Crypto only, so it runs on Node 20+, Deno, Bun and edge runtimes.
 */
export { type CallOptions, KassaClient, type KassaClientOptions } from './client.js';
export { KassaError, type KassaErrorCode, KassaNetworkError, WebhookVerificationError } from './errors.js';
export type * from './types.js';
export { type VerifyWebhookOptions, verifyWebhook, type WebhookHeaders } from './webhooks.js';
