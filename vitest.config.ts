import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The suites that also run on PostgreSQL (project `postgres`: KASSA_TEST_ENGINE=postgres gives every
 * harness a fresh PostgreSQL database, and the `kassa` processes a test spawns on a harness's
 * database run on it too; test/helpers/test-engine.ts), chosen to reach every area of the Store
 * through the API, the CLI and the worker while adding a few minutes to `npm test`. Together with
 * the Store contract (src/db/pg-store.test.ts, in the `sqlite` project with its own cluster) they
 * are what PostgreSQL is tested by.
 *
 * Left on SQLite only: suites that read or arrange rows through SQLite directly (h.db, sqliteOf,
 * openDatabase, the repositories; on PostgreSQL h.db throws, so none can pass there unnoticed):
 * the EVM/TRON/Sui collection, payout, ledger, reorg, crash and RPC-fault suites, the webhook
 * delivery suites, checkout and dashboard pages, reconciliation, the CLI suites, readiness and
 * metrics; test/postgres/shop-processes.test.ts walks their path (collection, credit, webhook,
 * payout, reconcile) on PostgreSQL with real processes. Also left out, to keep the time down,
 * suites whose database use is incidental to what they test (rate limits and failed-auth counters
 * kept in memory, client addresses, the OpenAPI document, the admin listener, the access log).
 */
const POSTGRES_SUITES = [
  // the merchant API: orders, payouts, balances, queries, signatures and nonces
  'src/http/routes/order.create-collection.test.ts',
  'src/http/routes/order.create-payout.test.ts',
  'src/http/routes/order.queries.test.ts',
  'src/http/routes/merchant.get-balance.test.ts',
  'src/http/routes/checkout-sign.test.ts',
  'src/http/middleware/signed-post.test.ts',
  'src/services/manage-merchants.test.ts',
  // XPay mode: requests as XPay's Node and Java SDKs sign them, and the ones refused
  'test/xpay/requests-node-sdk.test.ts',
  'test/xpay/requests-java-rule.test.ts',
  'test/xpay/refusals.test.ts',
  // the dashboard: accounts, sessions, merchants, the operator's payout decisions
  'src/admin/routes/sign-in.test.ts',
  'src/admin/sessions.test.ts',
  'src/admin/routes/merchants.test.ts',
  'src/admin/routes/payouts-signing.test.ts',
  // the worker's services on real nodes: scanning, sweeping, checkpoints, leases, node fail-over
  'test/evm/sweeps.test.ts',
  'test/evm/resilience.test.ts',
  'test/tron/sweeps.test.ts',
  'test/tron/failover.test.ts',
  'test/sui/sweeps.test.ts',
  // worker processes killed in the middle of a sweep and restarted, on the harness's database
  'test/evm/sweep-kill.test.ts',
  'test/tron/sweep-kill.test.ts',
  'test/sui/sweep-kill.test.ts',
  // two kassa workers on one database: the standby takes over within 10 s of a SIGKILL
  'test/ops/worker-takeover.test.ts',
  // several kassa processes on one PostgreSQL
  'test/postgres/**/*.test.ts',
];

export default defineConfig({
  test: {
    // One throwaway PostgreSQL cluster per project and run (test/setup/postgres.ts).
    globalSetup: ['test/setup/postgres.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: [
            'src/**/*.test.ts',
            'src/**/*.test.tsx',
            'workers/**/*.test.ts',
            'test/**/*.test.ts',
            'clients/*/test/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, 'test/postgres/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: POSTGRES_SUITES,
          env: { KASSA_TEST_ENGINE: 'postgres' },
        },
      },
    ],
  },
});
