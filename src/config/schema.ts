import { isIP } from 'node:net';
import { z } from 'zod';
import { CHAINS } from '../domain/chains.ts';
import { decimalString } from './amount-schema.ts';
import { databaseSchema } from './database-schema.ts';
import { payoutsSchema } from './payout-schema.ts';
import { reconcileSchema, sweepSchema } from './sweep-schema.ts';

const tokenSchema = z.object({
  symbol: z.string().regex(/^[A-Za-z0-9.]{1,16}$/, 'must be 1–16 letters, digits or dots'),
  /** Contract address (EVM, TRON), coin type (SUI), or null for the native coin. */
  contract: z.string().min(1).nullable(),
  decimals: z.number().int().min(0).max(36),
});

const networkSchema = z.object({
  rpc: z.array(z.string().url()).default([]),
  /** EVM chain id the RPC must report. */
  chainId: z.number().int().positive().optional(),
  tokens: z.array(tokenSchema).default([]),
  /** Transaction link for the checkout page; `{txid}` is replaced. */
  explorerTx: z.string().default(''),
});

const rateLimitSchema = z.object({
  limit: z.number().int().positive(),
  windowSeconds: z.number().positive(),
});

const rateLimitsSchema = z.object({
  createCollection: rateLimitSchema,
  createPayout: rateLimitSchema,
  status: rateLimitSchema,
  pay: rateLimitSchema,
  getOrderStatus: rateLimitSchema,
  supportSymbols: rateLimitSchema,
  getBalance: rateLimitSchema.default({ limit: 100, windowSeconds: 10 }),
});

/** An IPv4 or IPv6 address, optionally with a /prefix. */
const cidrSchema = z.string().refine(
  (text) => {
    const [address, prefix, ...rest] = text.split('/');
    const family = isIP(address ?? '');
    if (family === 0 || rest.length > 0) return false;
    if (prefix === undefined) return true;
    return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
  },
  { message: 'must be an IP address or CIDR range such as 10.0.0.0/8 or fd00::/8' },
);

const trustProxySchema = z.union([z.boolean(), z.number().int().min(0).max(32), z.array(cidrSchema)]);

export const chainSchema = z.object({
  enabled: z.boolean().default(true),
  /** A block count, or `finalized` (EVM finalized tag, TRON solidified block, SUI checkpointed). */
  confirmations: z.union([z.literal('finalized'), z.number().int().min(0)]),
  /** Minimum confirmations even when the finalized tag says more (defence in depth). */
  confirmationFloor: z.number().int().min(0).default(0),
  pollIntervalMs: z.number().int().min(50),
  /** Expected time between blocks (checkpoints on SUI); part of the scanner's default lag budget. */
  blockTimeMs: z.number().int().positive().optional(),
  /** How far (seconds) the scanner may trail the chain before /readyz reports it; default: see `ops.lagBudget`. */
  lagBudgetSeconds: z.number().positive().optional(),
  /** EVM: the largest eth_getLogs block range to ask for; shrinks on provider errors. */
  maxLogRange: z.number().int().positive().default(2000),
  /** EVM: sign type-2 (EIP-1559) transactions; legacy gas price otherwise. */
  eip1559: z.boolean().default(true),
  /** Moving deposits to the hot wallet or a treasury address (README, "Sweeping"). */
  sweep: sweepSchema.prefault({}),
  mainnet: networkSchema,
  testnet: networkSchema,
});

export const configSchema = z.object({
  network: z.enum(['mainnet', 'testnet']),
  host: z.string().min(1),
  port: z.number().int().min(0).max(65535),
  /** The external address merchants and customers reach, used in `paymentUrl`. */
  baseUrl: z.string().url(),
  /** The SQLite file (KASSA_DB), unless `database.url` puts Kassa on PostgreSQL. */
  db: z.string().min(1),
  logLevel: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']),
  orders: z.object({
    collectionTtlSeconds: z.number().int().min(60),
    payoutTtlSeconds: z.number().int().min(60),
    /** The operator's handling fee shown in `fee`; "0.00" charges none. */
    handlingFee: decimalString,
  }),
  auth: z.object({
    timestampWindowSeconds: z.number().int().min(1),
    maxBodyBytes: z.number().int().min(1024),
    /** JSON nested deeper than this (arrays and objects) is refused with 400 before it is parsed. */
    maxJsonDepth: z.number().int().min(4).max(1000).default(64),
    /**
     * Failed authentications (bad signature, stale timestamp, reused nonce) one client address may
     * make per window; past it every signed request from that address gets 429 before any HMAC work.
     */
    failedAttempts: rateLimitSchema.prefault({ limit: 30, windowSeconds: 60 }),
  }),
  rateLimits: rateLimitsSchema.extend({
    /** Per-merchant overrides, keyed by merchant id. */
    merchants: z.record(z.string(), rateLimitsSchema.partial()).default({}),
  }),
  /**
   * Which reverse proxies' X-Forwarded-For to believe for the client address: `false`/0 (none: the
   * socket's peer is the client), a hop count (the nearest N proxies; `true` means 1), or a list of
   * proxy addresses and CIDR ranges. The client is the first untrusted address from the right.
   */
  trustProxy: trustProxySchema,
  checkout: z.object({
    /** CSP frame-ancestors sources allowed to embed the checkout page; empty = none. */
    frameAncestors: z.array(z.string()).default([]),
  }),
  webhooks: z.object({
    /** One attempt's limit: connect, send, and read the answer. */
    timeoutMs: z.number().int().min(100),
    /** How long a failing event is retried (from its transition, or from a resend) before it is failed. */
    retryForSeconds: z.number().int().min(1),
    /** Requests in flight at once, over all merchants. */
    concurrency: z.number().int().min(1).max(256),
    /** Requests in flight at once to one merchant, so one slow receiver cannot take every slot. */
    perMerchantConcurrency: z.number().int().min(1).max(256).default(8),
    pollIntervalMs: z.number().int().min(10),
    /** Backoff: the delay after the first failure is drawn from [base/2, base], doubling each time. */
    retryBaseMs: z.number().int().min(1).default(60_000),
    /** Backoff: the longest wait between two attempts (default 12 h). */
    retryMaxDelayMs: z
      .number()
      .int()
      .min(1)
      .default(12 * 3600_000),
    /**
     * Deliver to callback URLs that resolve to loopback, private, link-local or unspecified
     * addresses. Off in production (a merchant could aim Kassa at the operator's own network); the
     * sandbox turns it on for its local receiver.
     */
    allowPrivateTargets: z.boolean().default(false),
  }),
  payouts: payoutsSchema.prefault({}),
  /** The worker's scheduled `kassa reconcile` (README, "Reconciliation"). */
  reconcile: reconcileSchema.prefault({}),
  /** The API processes (README, "Several processes"). */
  api: z
    .object({
      /**
       * How many `kassa api` (or `kassa start`) processes serve the same database behind one load
       * balancer. Rate limits are counted in each process's memory, so each enforces
       * ceil(limit / processes) of every limit (rateLimits, auth.failedAttempts,
       * admin.signInPerAddress): together they admit at most the limit (+ processes − 1) per window.
       * KASSA_API_PROCESSES overrides.
       */
      processes: z.number().int().min(1).max(64).default(1),
    })
    .prefault({}),
  worker: z.object({
    expireIntervalMs: z.number().int().min(10),
    payoutIntervalMs: z.number().int().min(10),
  }),
  /** Which engine holds the records (SQLite's `db`, or PostgreSQL's `url`) and how it is reached. */
  database: databaseSchema.prefault({}),
  /** Health, readiness and metrics endpoints (docs/operations.md). */
  ops: z
    .object({
      /**
       * A chain's default lag budget: `pollIntervals` × its poll interval + its block time +
       * `slackSeconds`. A chain's `lagBudgetSeconds` replaces the whole sum.
       */
      lagBudget: z
        .object({
          pollIntervals: z.number().positive().default(3),
          slackSeconds: z.number().min(0).default(30),
        })
        .prefault({}),
      /**
       * Bearer token GET /metrics requires; null leaves it open (bind or firewall it instead). A
       * secret, so it comes from the environment: KASSA_METRICS_TOKEN.
       */
      metricsToken: z
        .string()
        .min(16, 'must be at least 16 characters (openssl rand -hex 16)')
        .nullable()
        .prefault(() => process.env.KASSA_METRICS_TOKEN || null),
    })
    .prefault({}),
  /**
   * The admin listener (/metrics, readiness detail, the operator's dashboard at /admin) and the
   * dashboard's settings (docs/dashboard.md). The listener is bound to 127.0.0.1 by default;
   * KASSA_ADMIN_HOST / KASSA_ADMIN_PORT override. Port 0 picks a free one.
   */
  admin: z
    .object({
      host: z.string().min(1).default('127.0.0.1'),
      port: z.number().int().min(0).max(65535).default(9180),
      /**
       * Where the dashboard is served: `admin-port` (under /admin on the admin listener, the
       * default), `api-port` (under /admin on the public port as well: put it behind TLS and
       * restrict who reaches /admin), or `off`.
       */
      dashboard: z.enum(['admin-port', 'api-port', 'off']).default('admin-port'),
      /** A session ends this many hours after sign-in, whatever its activity. */
      sessionHours: z
        .number()
        .positive()
        .max(24 * 30)
        .default(12),
      /** ... and after this many minutes without a request. */
      idleMinutes: z.number().positive().default(30),
      /** Sign-in attempts one client address may make in a window (right or wrong). */
      signInPerAddress: z
        .object({ limit: z.number().int().positive(), windowSeconds: z.number().positive() })
        .default({ limit: 10, windowSeconds: 900 }),
      /** Wrong passwords (or codes) in a row after which an account is locked for `lockSeconds`. */
      signInPerAccount: z
        .object({ failures: z.number().int().positive(), lockSeconds: z.number().int().positive() })
        .default({ failures: 5, lockSeconds: 900 }),
      /** The overview warns when a hot wallet's native coin pays fewer than this many payouts' fees. */
      lowFeePayouts: z.number().int().min(0).default(10),
    })
    .prefault({}),
  chains: z.object(
    Object.fromEntries(CHAINS.map((c) => [c, chainSchema])) as Record<
      (typeof CHAINS)[number],
      typeof chainSchema
    >,
  ),
});

export type ConfigInput = z.input<typeof configSchema>;
export type Config = z.output<typeof configSchema>;
export type ChainSettings = z.output<typeof chainSchema>;
export type TokenSettings = z.output<typeof tokenSchema>;
export type RateLimitName = keyof z.output<typeof rateLimitsSchema>;
export type RateLimit = z.output<typeof rateLimitSchema>;
export type TrustProxy = z.output<typeof trustProxySchema>;
export type PayoutSettings = z.output<typeof payoutsSchema>;
export type SweepSettings = z.output<typeof sweepSchema>;
