/**
 * The import rules of ../shared/STYLE.md ("the direction of every arrow is downward"), checked by
 * dependency-cruiser on every `npm test` (`npm run deps`) and by test/architecture.test.ts, which
 * also shows that a planted violation fails. Relative imports and packages alike; tests, benchmarks
 * and scripts may import anything (they are not part of the product).
 *
 *   npx depcruise src workers --config .dependency-cruiser.cjs
 */
const TEST = '\\.test\\.tsx?$';
const PRODUCT = '^(src|workers)/';
/** A package by name, as dependency-cruiser resolves it (node_modules/<name>/… or its @types). */
const pkg = (...names) => `(^|/)node_modules/(@types/)?(${names.join('|')})/`;
/** Where each chain SDK may be imported: its adapter folder, and the devnet that fakes its chain. */
const SDK_HOMES = {
  viem: ['viem'],
  'tron/': ['tronweb'],
  'sui/': ['@mysten/sui'],
};

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle makes two modules one: neither can be understood, tested or moved alone.',
      severity: 'error',
      from: { path: PRODUCT },
      to: { circular: true },
    },
    {
      name: 'src-not-workers',
      comment: 'The worker is built on src, never the other way (the CLI gets the worker injected).',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^workers/' },
    },
    {
      name: 'product-not-tests',
      comment: 'Product code never reads test fixtures, helpers or benchmarks.',
      severity: 'error',
      from: { path: PRODUCT, pathNot: TEST },
      to: { path: '^(test|bench|scripts)/' },
    },
    {
      name: 'domain-is-pure',
      comment: 'domain/ imports nothing outside itself: no package, no node module, no other layer.',
      severity: 'error',
      from: { path: '^src/domain/', pathNot: TEST },
      to: { pathNot: '^src/domain/' },
    },
    {
      name: 'lib-node-and-pino-only',
      comment: 'lib/ holds small helpers on node:* and pino alone.',
      severity: 'error',
      from: { path: '^src/lib/', pathNot: TEST },
      to: {
        pathNot: ['^src/lib/', pkg('pino'), '^node:', '^(crypto|net|fs|path|os|util|url)$'],
        dependencyTypesNot: ['core'],
      },
    },
    {
      name: 'keys-no-io',
      comment: 'keys/ derives keys: no database, chain, network or file access.',
      severity: 'error',
      from: { path: '^src/keys/', pathNot: TEST },
      to: {
        path: [
          '^src/(db|chains|services|http|admin|checkout|cli|config|devnet)/',
          '^(node:)?(fs|net|http|https|child_process|dgram|dns)$',
        ],
      },
    },
    {
      name: 'config-below-everything',
      comment: 'config/ reads settings; it knows no layer above the domain.',
      severity: 'error',
      from: { path: '^src/config/', pathNot: TEST },
      to: { path: '^src/(db|chains|services|http|admin|checkout|cli|keys|devnet)/' },
    },
    {
      name: 'environment-read-by-bootstrap-only',
      comment:
        'config/load.ts reads process.env and the config files; only bootstrap.ts (and the CLI that reports its errors) may import it. Types and activeChain() live in config/schema.ts and config/active-chain.ts.',
      severity: 'error',
      from: { path: PRODUCT, pathNot: ['^src/bootstrap\\.ts$', '^src/config/', TEST] },
      to: { path: '^src/config/load\\.ts$' },
    },
    {
      name: 'db-below-services',
      comment: 'The repositories know the domain and the schema, never the layers that use them.',
      severity: 'error',
      from: { path: '^src/db/', pathNot: TEST },
      to: { path: '^src/(services|chains|http|admin|checkout|cli|keys|devnet)/' },
    },
    {
      name: 'chains-below-services',
      comment: 'Chain adapters implement the port; they know neither services nor the database.',
      severity: 'error',
      from: { path: '^src/chains/', pathNot: TEST },
      to: { path: ['^src/(services|db|http|admin|checkout|cli|devnet)/', '^src/bootstrap\\.ts$'] },
    },
    {
      name: 'services-know-no-http-driver-or-sdk',
      comment: 'Services are verbs on the domain: no HTTP, no SQL driver, no chain SDK, no CLI.',
      severity: 'error',
      from: { path: '^src/services/', pathNot: TEST },
      to: {
        path: [
          '^src/(http|admin|checkout|cli|devnet)/',
          '^src/bootstrap\\.ts$',
          pkg('hono', '@hono', 'drizzle-orm', 'better-sqlite3', 'viem', 'tronweb', '@mysten'),
        ],
      },
    },
    {
      name: 'services-reach-the-database-through-the-port',
      comment:
        'Services hold the database as the async Store port (db/store.ts, types only) and await it; the SQL handle, the schema and the SQLite repositories stay behind it, so another engine can implement the port.',
      severity: 'error',
      from: { path: '^src/services/', pathNot: TEST },
      to: { path: '^src/db/', pathNot: '^src/db/store\\.ts$' },
    },
    {
      name: 'db-only-from-bootstrap-and-services',
      comment:
        'Only the composition root (bootstrap.ts) opens the database and builds the port; every other layer reaches it through services.',
      severity: 'error',
      from: { path: PRODUCT, pathNot: ['^src/(db|services)/', '^src/bootstrap\\.ts$', TEST] },
      to: { path: '^src/db/' },
    },
    {
      name: 'http-through-services',
      comment: 'HTTP, the dashboard and the checkout page reach data and chains only through services.',
      severity: 'error',
      from: { path: '^src/(http|admin|checkout)/', pathNot: TEST },
      to: {
        path: [
          '^src/(db|chains|cli|devnet)/',
          pkg('drizzle-orm', 'better-sqlite3', 'viem', 'tronweb', '@mysten'),
        ],
      },
    },
    {
      name: 'drizzle-only-in-db',
      comment: 'Only the repositories (src/db) speak SQL.',
      severity: 'error',
      from: { path: PRODUCT, pathNot: ['^src/db/', TEST] },
      to: { path: pkg('drizzle-orm', 'better-sqlite3') },
    },
    ...Object.entries(SDK_HOMES).map(([family, names]) => {
      const folder = family === 'viem' ? 'evm/' : family;
      return {
        name: `sdk-${names[0].replace(/[^a-z]/g, '')}-in-its-folder`,
        comment: `${names.join(', ')} appears only in src/chains/${folder} and src/devnet/${folder}.`,
        severity: 'error',
        from: { path: PRODUCT, pathNot: [`^src/(chains|devnet)/${folder}`, TEST] },
        to: { path: pkg(...names) },
      };
    }),
    {
      name: 'devnet-only-for-sandbox-and-demo',
      comment:
        'The devnets are for `kassa sandbox`, `kassa demo` and tests; the production build leaves them out (scripts/build.ts).',
      severity: 'error',
      from: { path: PRODUCT, pathNot: ['^src/devnet/', '^src/cli/(sandbox|demo)\\.ts$', TEST] },
      to: { path: '^src/devnet/' },
    },
    {
      name: 'devnet-commands-loaded-lazily',
      comment:
        'The sandbox and demo commands are imported only on demand, so no other command loads a devnet.',
      severity: 'error',
      from: { path: PRODUCT, pathNot: TEST },
      to: { path: '^src/cli/(sandbox|demo)\\.ts$', dependencyTypesNot: ['dynamic-import'] },
    },
    {
      name: 'client-only-from-demo',
      comment: 'The merchant client package (clients/typescript) is used by `kassa demo` alone.',
      severity: 'error',
      from: { path: PRODUCT, pathNot: ['^src/cli/demo\\.ts$', TEST] },
      to: { path: '^clients/' },
    },
    {
      name: 'workers-are-thin',
      comment: 'Jobs wrap services; they reach neither the database, HTTP nor the CLI directly.',
      severity: 'error',
      from: { path: '^workers/', pathNot: TEST },
      to: { path: '^src/(db|http|admin|checkout|cli|devnet)/' },
    },
    {
      name: 'no-unresolvable',
      comment: 'An import that resolves to nothing is a typo or a missing dependency.',
      severity: 'error',
      from: { path: PRODUCT },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
