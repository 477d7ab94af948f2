/**
 * Kassa's defaults: every non-secret setting. `kassa … --config FILE` (JSON or TS) merges over this,
 * and environment variables (PORT, KASSA_DB, KASSA_DATABASE_URL, KASSA_DATABASE_POOL_SIZE,
 * KASSA_BASE_URL, KASSA_NETWORK, KASSA_RPC_<CHAIN>, KASSA_CONFIRMATIONS_<CHAIN>, KASSA_SWEEP_<CHAIN>,
 * KASSA_SWEEP_DESTINATION_<CHAIN>) override both. Secrets never live here: see README, "Configuration".
 *
 * Token contracts and decimals: ../shared/reference/chains.md C.3, A.9, B.6. BSC's USDT and USDC
 * have 18 decimals; everything else in scope has 6. USDC on TRON is not offered (Circle ended it).
 */
import type { ConfigInput } from './src/config/schema.ts';

const config = {
  network: 'mainnet',
  host: '0.0.0.0',
  port: 180,
  baseUrl: 'http://localhost:180',
  db: './data/kassa.db',
  logLevel: 'info',
  orders: { collectionTtlSeconds: 30 * 60, payoutTtlSeconds: 30 * 60, handlingFee: '0.00' },
  auth: {
    timestampWindowSeconds: 300,
    maxBodyBytes: 64 * 1024,
    maxJsonDepth: 64,
    failedAttempts: { limit: 30, windowSeconds: 60 },
  },
  rateLimits: {
    createCollection: { limit: 100, windowSeconds: 10 },
    createPayout: { limit: 100, windowSeconds: 10 },
    status: { limit: 1000, windowSeconds: 10 },
    pay: { limit: 2, windowSeconds: 1 },
    getOrderStatus: { limit: 2, windowSeconds: 1 },
    supportSymbols: { limit: 50, windowSeconds: 10 },
    getBalance: { limit: 100, windowSeconds: 10 },
    merchants: {},
  },
  trustProxy: false,
  checkout: { frameAncestors: [] },
  webhooks: {
    timeoutMs: 10_000,
    retryForSeconds: 3 * 24 * 3600,
    concurrency: 32,
    perMerchantConcurrency: 8,
    pollIntervalMs: 200,
    retryBaseMs: 60_000,
    retryMaxDelayMs: 12 * 3600_000,
    allowPrivateTargets: false,
  },
  payouts: {
    requireMerchantBalance: true,
    maxFeeBump: 3,
    repriceAfterSeconds: 180,
    limits: { maxAmount: {}, dailyAmount: {}, approvalAbove: {} },
    merchants: {},
  },
  reconcile: { enabled: true, schedule: '17 3 * * *' },
  worker: { expireIntervalMs: 5_000, payoutIntervalMs: 2_000 },
  admin: { host: '127.0.0.1', port: 9180 },
  // url: null runs on the SQLite file `db`; a postgres:// URL (KASSA_DATABASE_URL) on PostgreSQL 15+.
  database: { lockWaitMs: 5_000, url: null, poolSize: 10 },
  ops: { lagBudget: { pollIntervals: 3, slackSeconds: 30 } },
  chains: {
    TRON: {
      confirmations: 'finalized',
      pollIntervalMs: 3_000,
      blockTimeMs: 3_000,
      // Off until a destination is set; nativeValue = one native coin in dollars, to weigh fees (README, "Sweeping").
      sweep: { destination: null, maxFeeRatio: 0.05, nativeValue: '0.3' },
      mainnet: {
        rpc: ['https://api.trongrid.io'],
        tokens: [
          { symbol: 'USDT', contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', decimals: 6 },
          { symbol: 'TRX', contract: null, decimals: 6 },
        ],
        explorerTx: 'https://tronscan.org/#/transaction/{txid}',
      },
      testnet: {
        rpc: ['https://nile.trongrid.io'],
        tokens: [
          { symbol: 'USDT', contract: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf', decimals: 6 },
          { symbol: 'TRX', contract: null, decimals: 6 },
        ],
        explorerTx: 'https://nile.tronscan.org/#/transaction/{txid}',
      },
    },
    ETH: {
      confirmations: 'finalized',
      pollIntervalMs: 12_000,
      blockTimeMs: 12_000,
      // Off until a destination is set; nativeValue = one native coin in dollars, to weigh fees (README, "Sweeping").
      sweep: { destination: null, maxFeeRatio: 0.05, nativeValue: '3000' },
      mainnet: {
        rpc: ['https://ethereum-rpc.publicnode.com'],
        chainId: 1,
        tokens: [
          { symbol: 'USDT', contract: '0xdAC17F958D2ee523a2206206994597C13D831ec7', decimals: 6 },
          { symbol: 'USDC', contract: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', decimals: 6 },
          { symbol: 'ETH', contract: null, decimals: 18 },
        ],
        explorerTx: 'https://etherscan.io/tx/{txid}',
      },
      testnet: {
        rpc: ['https://ethereum-sepolia-rpc.publicnode.com'],
        chainId: 11155111,
        tokens: [
          { symbol: 'USDC', contract: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', decimals: 6 },
          { symbol: 'ETH', contract: null, decimals: 18 },
        ],
        explorerTx: 'https://sepolia.etherscan.io/tx/{txid}',
      },
    },
    BSC: {
      confirmations: 'finalized',
      pollIntervalMs: 3_000,
      blockTimeMs: 750,
      maxLogRange: 500,
      eip1559: false,
      // Off until a destination is set; nativeValue = one native coin in dollars, to weigh fees (README, "Sweeping").
      sweep: { destination: null, maxFeeRatio: 0.05, nativeValue: '600' },
      mainnet: {
        rpc: ['https://bsc-rpc.publicnode.com'],
        chainId: 56,
        tokens: [
          { symbol: 'USDT', contract: '0x55d398326f99059fF775485246999027B3197955', decimals: 18 },
          { symbol: 'USDC', contract: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', decimals: 18 },
          { symbol: 'BNB', contract: null, decimals: 18 },
        ],
        explorerTx: 'https://bscscan.com/tx/{txid}',
      },
      testnet: {
        rpc: ['https://bsc-testnet-rpc.publicnode.com'],
        chainId: 97,
        tokens: [
          { symbol: 'USDT', contract: '0x337610d27c682E347C9cD60BD4b3b107C9d34dDd', decimals: 18 },
          { symbol: 'BNB', contract: null, decimals: 18 },
        ],
        explorerTx: 'https://testnet.bscscan.com/tx/{txid}',
      },
    },
    POLYGON: {
      confirmations: 'finalized',
      confirmationFloor: 32,
      pollIntervalMs: 4_000,
      blockTimeMs: 2_000,
      // Off until a destination is set; nativeValue = one native coin in dollars, to weigh fees (README, "Sweeping").
      sweep: { destination: null, maxFeeRatio: 0.05, nativeValue: '0.25' },
      mainnet: {
        rpc: ['https://polygon-bor-rpc.publicnode.com'],
        chainId: 137,
        tokens: [
          { symbol: 'USDT', contract: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', decimals: 6 },
          { symbol: 'USDC', contract: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', decimals: 6 },
          { symbol: 'POL', contract: null, decimals: 18 },
        ],
        explorerTx: 'https://polygonscan.com/tx/{txid}',
      },
      testnet: {
        rpc: ['https://polygon-amoy-bor-rpc.publicnode.com'],
        chainId: 80002,
        tokens: [
          { symbol: 'USDC', contract: '0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582', decimals: 6 },
          { symbol: 'POL', contract: null, decimals: 18 },
        ],
        explorerTx: 'https://amoy.polygonscan.com/tx/{txid}',
      },
    },
    AVAX_C_CHAIN: {
      confirmations: 1,
      pollIntervalMs: 2_000,
      blockTimeMs: 2_000,
      // Off until a destination is set; nativeValue = one native coin in dollars, to weigh fees (README, "Sweeping").
      sweep: { destination: null, maxFeeRatio: 0.05, nativeValue: '25' },
      mainnet: {
        rpc: ['https://avalanche-c-chain-rpc.publicnode.com'],
        chainId: 43114,
        tokens: [
          { symbol: 'USDT', contract: '0x9702230A8Ea53601f5cD2dc00fDBc13d4dF4A8c7', decimals: 6 },
          { symbol: 'USDC', contract: '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E', decimals: 6 },
          { symbol: 'AVAX', contract: null, decimals: 18 },
        ],
        explorerTx: 'https://snowtrace.io/tx/{txid}',
      },
      testnet: {
        rpc: ['https://avalanche-fuji-c-chain-rpc.publicnode.com'],
        chainId: 43113,
        tokens: [
          { symbol: 'USDC', contract: '0x5425890298aed601595a70AB815c96711a31Bc65', decimals: 6 },
          { symbol: 'AVAX', contract: null, decimals: 18 },
        ],
        explorerTx: 'https://testnet.snowtrace.io/tx/{txid}',
      },
    },
    SUI: {
      confirmations: 'finalized',
      pollIntervalMs: 1_000,
      blockTimeMs: 250,
      // Off until a destination is set; nativeValue = one native coin in dollars, to weigh fees (README, "Sweeping").
      sweep: { destination: null, maxFeeRatio: 0.05, nativeValue: '3' },
      mainnet: {
        rpc: ['https://fullnode.mainnet.sui.io:443'],
        tokens: [
          {
            symbol: 'USDC',
            contract: '0xdba34672e30cb065b1f93e3ab55318768fd6fef66c15942c9f7cb846e2f900e7::usdc::USDC',
            decimals: 6,
          },
          { symbol: 'SUI', contract: null, decimals: 9 },
        ],
        explorerTx: 'https://suiscan.xyz/mainnet/tx/{txid}',
      },
      testnet: {
        rpc: ['https://fullnode.testnet.sui.io:443'],
        tokens: [
          {
            symbol: 'USDC',
            contract: '0xa1ec7fc00a6f40db9693ad1415d0c193ad3906494428cf252621037bd7117e29::usdc::USDC',
            decimals: 6,
          },
          { symbol: 'SUI', contract: null, decimals: 9 },
        ],
        explorerTx: 'https://suiscan.xyz/testnet/tx/{txid}',
      },
    },
  },
} satisfies ConfigInput;

export default config;
